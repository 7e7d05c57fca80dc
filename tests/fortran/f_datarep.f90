! MPI_REGISTER_DATAREP from Fortran: a representation that stores every
! INTEGER negated, with Fortran conversion and extent functions and their
! extra state.  Written through it, the file read with "native" holds the
! negated values; read back through it, the values written.  Run on 2
! processes.  Stops with a distinct code at the first wrong value.
program f_datarep
  use mpi
  implicit none
  integer :: ierr, fh, rank, i
  integer :: buf(4), back(4)
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer(kind=MPI_OFFSET_KIND) :: disp, at
  character(len=*), parameter :: path = 'f_datarep.tmp'
  external :: neg_read, neg_write, int_extent

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  extra = 7
  call MPI_Register_datarep('tern-negate', neg_read, neg_write, int_extent, extra, ierr)
  if (ierr /= MPI_SUCCESS) stop 2
  call MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)
  call MPI_File_open(MPI_COMM_WORLD, path, ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, &
                     fh, ierr)
  if (ierr /= MPI_SUCCESS) stop 3
  disp = 0
  at = 4 * rank
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'tern-negate', MPI_INFO_NULL, ierr)
  call say(ierr)
  if (ierr /= MPI_SUCCESS) stop 4
  buf = (/ (10 * rank + i, i = 1, 4) /)
  call MPI_File_write_at_all(fh, at, buf, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) stop 5
  call MPI_File_sync(fh, ierr)

  ! As the file holds them: negated.
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  back = 0
  call MPI_File_read_at_all(fh, at, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) stop 6
  if (any(back /= -buf)) stop 7

  ! Through the representation again: the values written.
  call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'tern-negate', MPI_INFO_NULL, ierr)
  back = 0
  call MPI_File_read_at_all(fh, at, back, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) stop 8
  if (any(back /= buf)) stop 9

  call MPI_File_close(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_File_delete(path, MPI_INFO_NULL, ierr)
  call MPI_Finalize(ierr)
end program f_datarep

! The error string of a failed call, on stderr.
subroutine say(ierr)
  use mpi
  implicit none
  integer :: ierr, slen, e
  character(len=MPI_MAX_ERROR_STRING) :: msg
  if (ierr == MPI_SUCCESS) return
  call MPI_Error_string(ierr, msg, slen, e)
  write (0, '(a)') msg(1:slen)
end subroutine say

! Memory to file: data items position + 1 .. position + count of userbuf.
subroutine neg_write(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  ierror = MPI_ERR_OTHER
  if (extra_state /= 7 .or. datatype /= MPI_INTEGER) return
  do i = 1, count
    filebuf(i) = -userbuf(position + i)
  end do
  ierror = MPI_SUCCESS
end subroutine neg_write

subroutine neg_read(userbuf, datatype, count, filebuf, position, extra_state, ierror)
  use mpi
  implicit none
  integer :: userbuf(*), filebuf(*), datatype, count, ierror, i
  integer(kind=MPI_OFFSET_KIND) :: position
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  ierror = MPI_ERR_OTHER
  if (extra_state /= 7 .or. datatype /= MPI_INTEGER) return
  do i = 1, count
    userbuf(position + i) = -filebuf(i)
  end do
  ierror = MPI_SUCCESS
end subroutine neg_read

subroutine int_extent(datatype, extent, extra_state, ierror)
  use mpi
  implicit none
  integer :: datatype, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state
  extent = 4
  ierror = MPI_SUCCESS
  if (extra_state /= 7) ierror = MPI_ERR_OTHER
end subroutine int_extent
