C     Fixed-form Fortran as MPI programs have long been written: one
C     buffer argument of MPI_SEND given an INTEGER array in one call and a
C     DOUBLE PRECISION one in the next (no interface, mpif.h), and a BOZ
C     constant in an assignment.  gfortran 10 refuses both unless told.
      PROGRAM MIXED
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, IBUF(2), MASK
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION DBUF(2)
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      MASK = Z'FF'
      IF (RANK .EQ. 0) THEN
         IBUF(1) = MASK
         IBUF(2) = 7
         DBUF(1) = 2.5D0
         DBUF(2) = -1.0D0
         CALL MPI_SEND(IBUF, 2, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, IERR)
         CALL MPI_SEND(DBUF, 2, MPI_DOUBLE_PRECISION, 1, 2,
     &                 MPI_COMM_WORLD, IERR)
      ELSE
         CALL MPI_RECV(IBUF, 2, MPI_INTEGER, 0, 1, MPI_COMM_WORLD,
     &                 STATUS, IERR)
         CALL MPI_RECV(DBUF, 2, MPI_DOUBLE_PRECISION, 0, 2,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         IF (IBUF(1) .EQ. 255 .AND. IBUF(2) .EQ. 7 .AND.
     &       DBUF(1) .EQ. 2.5D0 .AND. DBUF(2) .EQ. -1.0D0) THEN
            PRINT *, 'legacy fortran ok'
         ELSE
            PRINT *, 'legacy fortran wrong', IBUF, DBUF
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END
