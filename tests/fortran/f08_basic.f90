! Through `use mpi_f08`: point-to-point with TYPE(MPI_Status), MPI_IN_PLACE, MPI_BOTTOM,
! nonblocking requests, array sections as buffers, the large-count forms,
! and ierror left out.
! Run on 2 processes.  Stops with a distinct code at the first wrong value.
program f08_basic
  use mpi_f08
  implicit none
  type :: pair
    integer :: x, y
  end type pair
  type(pair) :: pairs(4)
  integer :: scalar
  integer, parameter :: n = 8
  integer :: rank, size, ierr, i, count, code, eclass, slen
  integer :: a(n), b(n), c(4, 3)
  integer(kind=MPI_COUNT_KIND) :: bigcount
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  type(MPI_Datatype) :: abstype
  double precision :: x(2)
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: dup
  character(len=MPI_MAX_ERROR_STRING) :: msg

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  if (ierr /= MPI_SUCCESS .or. size /= 2) stop 2

  ! Handles compare with == and /=, as types and against integers.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  if (dup == MPI_COMM_WORLD .or. .not. (dup /= MPI_COMM_WORLD)) stop 3
  if (MPI_COMM_WORLD%MPI_VAL /= MPI_COMM_WORLD) stop 4

  ! Send and receive with a status.
  if (rank == 0) then
    a = (/ (i, i = 1, n) /)
    call MPI_Send(a, n, MPI_INTEGER, 1, 7, MPI_COMM_WORLD)
  else
    b = 0
    call MPI_Recv(b, n, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    if (ierr /= MPI_SUCCESS) stop 5
    if (status%MPI_SOURCE /= 0 .or. status%MPI_TAG /= 7) stop 6
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= n) stop 7
    if (any(b /= (/ (i, i = 1, n) /))) stop 8
  end if

  ! The large-count forms, chosen by the kind of the count.
  if (rank == 0) then
    call MPI_Send(a, int(n - 1, MPI_COUNT_KIND), MPI_INTEGER, 1, 8, MPI_COMM_WORLD)
  else
    b = 0
    call MPI_Recv(b, int(n, MPI_COUNT_KIND), MPI_INTEGER, 0, 8, MPI_COMM_WORLD, status)
    call MPI_Get_count(status, MPI_INTEGER, bigcount)
    if (bigcount /= n - 1 .or. any(b(1:n-1) /= (/ (i, i = 1, n - 1) /)) .or. b(n) /= 0) stop 24
  end if

  ! Allreduce in place.
  x = (/ dble(rank + 1), 2.5d0 /)
  call MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_DOUBLE_PRECISION, MPI_SUM, dup)
  if (x(1) /= 3d0 .or. x(2) /= 5d0) stop 9

  ! Nonblocking exchange with requests and statuses.
  a = (/ (rank * 100 + i, i = 1, n) /)
  b = -1
  call MPI_Irecv(b, n, MPI_INTEGER, 1 - rank, 11, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(a, n, MPI_INTEGER, 1 - rank, 11, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, statuses)
  if (any(b /= (/ ((1 - rank) * 100 + i, i = 1, n) /))) stop 10
  if (statuses(1)%MPI_SOURCE /= 1 - rank .or. statuses(1)%MPI_TAG /= 11) stop 11
  if (reqs(1) /= MPI_REQUEST_NULL .or. reqs(2) /= MPI_REQUEST_NULL) stop 12

  ! A strided section, blocking: sent from a(1:n:2), received into b(2:n:2).
  a = (/ (i, i = 1, n) /)
  b = 0
  if (rank == 0) then
    call MPI_Send(a(1:n:2), n / 2, MPI_INTEGER, 1, 13, MPI_COMM_WORLD)
  else
    call MPI_Recv(b(2:n:2), n / 2, MPI_INTEGER, 0, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (any(b(2:n:2) /= (/ 1, 3, 5, 7 /)) .or. any(b(1:n:2) /= 0)) stop 14
  end if
  ! A two-dimensional section: columns 2 and 3, rows 1 and 3.
  c = reshape((/ (i, i = 1, 12) /), (/ 4, 3 /))
  call MPI_Bcast(c(1:4:2, 2:3), 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (any(c /= reshape((/ (i, i = 1, 12) /), (/ 4, 3 /)))) stop 15
  if (rank == 1) c = 0
  call MPI_Bcast(c(1:4:2, 2:3), 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (rank == 1) then
    if (c(1, 2) /= 5 .or. c(3, 2) /= 7 .or. c(1, 3) /= 9 .or. c(3, 3) /= 11) stop 16
    if (c(2, 2) /= 0 .or. c(4, 3) /= 0 .or. any(c(:, 1) /= 0)) stop 17
  end if
  ! Components of an array of pairs: adjacent in the array's element order,
  ! a pair apart in memory.
  pairs = (/ (pair(i, -i), i = 1, 4) /)
  if (rank == 1) pairs%x = 0
  call MPI_Bcast(pairs%x, 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (any(pairs%x /= (/ 1, 2, 3, 4 /)) .or. any(pairs%y /= (/ -1, -2, -3, -4 /))) stop 31
  ! A scalar, and a section of one element.
  scalar = 40 + rank
  call MPI_Bcast(scalar, 1, MPI_INTEGER, 1, MPI_COMM_WORLD)
  if (scalar /= 41) stop 32
  a = rank
  call MPI_Bcast(a(5:5), 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (a(5) /= 0 .or. a(4) /= rank .or. a(6) /= rank) stop 33
  ! Reduction over a section, written back into the section only.
  a = 1
  call MPI_Allreduce(MPI_IN_PLACE, a(1:n:2), n / 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(a(1:n:2) /= 2) .or. any(a(2:n:2) /= 1)) stop 18

  ! MPI_BOTTOM with a datatype of absolute addresses, from MPI_Get_address.
  a = (/ (10 * i, i = 1, n) /)
  b = 0
  call MPI_Get_address(a(3), addr(1))
  call MPI_Type_create_struct(1, (/ 2 /), addr, (/ MPI_INTEGER /), abstype)
  call MPI_Type_commit(abstype)
  if (rank == 0) then
    call MPI_Send(MPI_BOTTOM, 1, abstype, 1, 15, MPI_COMM_WORLD)
  else
    call MPI_Recv(b, 2, MPI_INTEGER, 0, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (b(1) /= 30 .or. b(2) /= 40 .or. b(3) /= 0) stop 25
  end if
  call MPI_Type_free(abstype)

  ! Sections given to nonblocking calls travel as datatypes over their
  ! strides: one-dimensional, all of a two-dimensional one, and part of one.
  a = (/ (rank * 100 + i, i = 1, n) /)
  b = 0
  call MPI_Irecv(b(2:n:2), n / 2, MPI_INTEGER, 1 - rank, 16, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(a(1:n:2), n / 2, MPI_INTEGER, 1 - rank, 16, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  if (any(b(2:n:2) /= (/ ((1 - rank) * 100 + i, i = 1, n, 2) /)) .or. any(b(1:n:2) /= 0)) stop 26
  c = 0
  if (rank == 0) then
    a = (/ 1, 2, 3, 4, 5, 6, 7, 8 /)
    call MPI_Isend(a(1:4), 4, MPI_INTEGER, 1, 17, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend(a(5:7), 3, MPI_INTEGER, 1, 18, MPI_COMM_WORLD, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  else
    call MPI_Irecv(c(1:4:2, 2:3), 4, MPI_INTEGER, 0, 17, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    if (c(1, 2) /= 1 .or. c(3, 2) /= 2 .or. c(1, 3) /= 3 .or. c(3, 3) /= 4) stop 27
    if (sum(c) /= 10) stop 28
    c = 0
    call MPI_Irecv(c(2:4:2, 1:3), 3, MPI_INTEGER, 0, 18, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= 3 .or. c(2, 1) /= 5 .or. c(4, 1) /= 6 .or. c(2, 2) /= 7 .or. sum(c) /= 18) stop 29
  end if

  ! A section that no datatype can describe there (a reduction, whose count
  ! and datatype serve two buffers; a datatype other than the array's) is
  ! refused with MPI_ERR_BUFFER and a string that says why.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Iallreduce(MPI_IN_PLACE, a(1:n:2), n / 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                      reqs(1), code)
  if (code == MPI_SUCCESS) stop 19
  call MPI_Error_class(code, eclass)
  if (eclass /= MPI_ERR_BUFFER) stop 20
  call MPI_Error_string(code, msg, slen)
  if (index(msg(1:slen), 'non-contiguous') == 0) stop 21
  call MPI_Isend(a(1:n:2), 4 * (n / 2), MPI_BYTE, 1 - rank, 19, MPI_COMM_WORLD, reqs(1), code)
  call MPI_Error_class(code, eclass)
  if (eclass /= MPI_ERR_BUFFER) stop 30

  call MPI_Comm_free(dup)
  if (dup /= MPI_COMM_NULL) stop 22
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize(ierr)
  if (ierr /= MPI_SUCCESS) stop 23
  if (rank == 0) print *, 'ok'
end program f08_basic
