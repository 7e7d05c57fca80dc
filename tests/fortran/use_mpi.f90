! Through `use mpi`: the module's constants and sentinels are mpif.h's.
! Ring exchange with MPI_SENDRECV and a status, MPI_IN_PLACE, a LOGICAL
! from MPI_INITIALIZED, the processor name with its hidden length, MPI_SIZEOF,
! and keyword arguments, which the module's interfaces name as the standard does.
program use_mpi_test
  use mpi
  implicit none
  integer :: rank, size, ierr, left, right, got, n, r
  integer :: status(MPI_STATUS_SIZE)
  double precision :: x(2)
  logical :: inited
  character(len=MPI_MAX_PROCESSOR_NAME) :: host

  call MPI_INITIALIZED(inited, ierr)
  if (inited) stop 2
  call MPI_INIT(ierr)
  call MPI_INITIALIZED(inited, ierr)
  if (.not. inited) stop 3
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
  r = -1
  ierr = -1
  call MPI_Comm_rank(comm=MPI_COMM_WORLD, rank=r, ierror=ierr)
  if (ierr /= MPI_SUCCESS .or. r /= rank) stop 10
  n = -1
  call MPI_Comm_size(ierror=ierr, size=n, comm=MPI_COMM_WORLD)
  if (ierr /= MPI_SUCCESS .or. n /= size) stop 11
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  call MPI_SENDRECV(rank, 1, MPI_INTEGER, right, 5, got, 1, MPI_INTEGER, left, 5, &
                    MPI_COMM_WORLD, status, ierr)
  if (ierr /= MPI_SUCCESS .or. got /= left) stop 4
  if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 5) stop 5
  x = (/ dble(rank), 1.5d0 /)
  call MPI_ALLREDUCE(MPI_IN_PLACE, x, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (x(1) /= dble(size * (size - 1) / 2) .or. x(2) /= 1.5d0 * size) stop 6
  host = '?'
  call MPI_GET_PROCESSOR_NAME(host, n, ierr)
  if (n <= 0 .or. n > MPI_MAX_PROCESSOR_NAME .or. host(n+1:) /= ' ') stop 7
  call MPI_SIZEOF(x, n, ierr)
  if (ierr /= MPI_SUCCESS .or. n /= 8) stop 8
  call MPI_SIZEOF(got, n, ierr)
  if (n /= 4) stop 9
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (rank == 0) print *, 'ok'
end program use_mpi_test
