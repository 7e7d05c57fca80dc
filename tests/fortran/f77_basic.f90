! Through mpif.h: send/recv with status checks, MPI_STATUS_IGNORE, LOGICAL
! flags, allreduce in place, a reduction op written in Fortran, an error
! handler that sees the error class, names with hidden lengths, attributes
! with Fortran callbacks.  Run on 2 ranks; stops with a nonzero code on the
! first wrong value.
subroutine check(ok, what)
  logical, intent(in) :: ok
  character(len=*), intent(in) :: what
  if (.not. ok) then
    print *, 'FAIL: ', what
    stop 1
  end if
end subroutine check

subroutine maxabs(invec, inoutvec, len, dtype)
  integer :: len, dtype, i
  integer :: invec(len), inoutvec(len)
  do i = 1, len
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine maxabs

subroutine on_error(comm, code)
  include 'mpif.h'
  integer :: comm, code, cls, ierr
  integer :: seen
  common /seen_err/ seen
  call MPI_ERROR_CLASS(code, cls, ierr)
  seen = cls
end subroutine on_error

program f77_basic
  implicit none
  include 'mpif.h'
  external maxabs, on_error
  integer :: rank, size, ierr, i, count, op, eh, keyval, dup
  integer :: status(MPI_STATUS_SIZE), buf(4), v(3), resultlen
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=40) :: short
  integer :: seen
  common /seen_err/ seen

  call MPI_INIT(ierr)
  call check(ierr == MPI_SUCCESS, 'init')
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
  call check(size == 2, 'two ranks')

  ! Point to point with a status, then with MPI_STATUS_IGNORE.
  if (rank == 0) then
    buf = (/ 1, 2, 3, 4 /)
    call MPI_SEND(buf, 4, MPI_INTEGER, 1, 17, MPI_COMM_WORLD, ierr)
    call MPI_SEND(buf, 2, MPI_INTEGER, 1, 18, MPI_COMM_WORLD, ierr)
  else
    buf = 0
    call MPI_RECV(buf, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    call check(ierr == MPI_SUCCESS, 'recv')
    call check(status(MPI_SOURCE) == 0, 'status source')
    call check(status(MPI_TAG) == 17, 'status tag')
    call MPI_GET_COUNT(status, MPI_INTEGER, count, ierr)
    call check(count == 4, 'get_count')
    call check(all(buf == (/ 1, 2, 3, 4 /)), 'recv data')
    call MPI_IPROBE(0, 18, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
    do while (.not. flag)
      call MPI_IPROBE(0, 18, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
    end do
    call check(flag .eqv. .true., 'iprobe flag')
    buf = 0
    call MPI_RECV(buf, 4, MPI_INTEGER, 0, 18, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call check(buf(1) == 1 .and. buf(2) == 2 .and. buf(3) == 0, 'recv with STATUS_IGNORE')
  end if

  ! Allreduce in place, with a predefined op and with a Fortran one.
  v = (/ rank + 1, 10 * (rank + 1), 7 /)
  call MPI_ALLREDUCE(MPI_IN_PLACE, v, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'allreduce')
  call check(all(v == (/ 3, 30, 14 /)), 'allreduce in place')
  call MPI_OP_CREATE(maxabs, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'op_create')
  v = (/ -5 * rank, rank, -1 /)
  call MPI_ALLREDUCE(MPI_IN_PLACE, v, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(all(v == (/ 5, 1, 1 /)), 'user op')
  call MPI_OP_FREE(op, ierr)
  call check(op == MPI_OP_NULL, 'op_free')

  ! Names: set from a blank-padded variable, read into one shorter and one
  ! as long as MPI_MAX_OBJECT_NAME.
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  short = 'tern fortran'
  call MPI_COMM_SET_NAME(dup, short, ierr)
  name = 'x'
  call MPI_COMM_GET_NAME(dup, name, resultlen, ierr)
  call check(resultlen == 12, 'get_name length')
  call check(name == 'tern fortran', 'get_name value, blank padded')
  call MPI_COMM_GET_NAME(MPI_COMM_WORLD, name, resultlen, ierr)
  call check(name(1:resultlen) == 'MPI_COMM_WORLD', 'name of MPI_COMM_WORLD')

  ! An error handler written in Fortran sees the class of the error.
  seen = -1
  call MPI_COMM_CREATE_ERRHANDLER(on_error, eh, ierr)
  call MPI_COMM_SET_ERRHANDLER(dup, eh, ierr)
  call MPI_SEND(buf, 1, MPI_INTEGER, 99, 0, dup, ierr)
  call check(seen == MPI_ERR_RANK, 'error handler saw MPI_ERR_RANK')
  call MPI_ERRHANDLER_FREE(eh, ierr)

  ! Attributes: a predefined one's value, and Fortran copy callbacks.
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB value')
  extra = 5
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'create_keyval')
  val = 123456789012_MPI_ADDRESS_KIND
  call MPI_COMM_SET_ATTR(dup, keyval, val, ierr)
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_SET_ATTR(dup, keyval, val, ierr)
  i = dup
  call MPI_COMM_DUP(i, dup, ierr)
  val = 0
  call MPI_COMM_GET_ATTR(dup, keyval, val, flag, ierr)
  call check(flag .and. val == 123456789012_MPI_ADDRESS_KIND, 'attribute copied by MPI_COMM_DUP_FN')
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_FREE(i, ierr)
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)

  call MPI_FINALIZE(ierr)
  if (rank == 0) print *, 'ok'
end program f77_basic
