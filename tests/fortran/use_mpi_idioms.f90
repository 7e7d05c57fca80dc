! `use mpi` as real programs use it, which the module's interfaces must not
! refuse: status arrays and their elements, MPI_STATUS(ES)_IGNORE,
! MPI_IN_PLACE, user and predefined callbacks (MPI_NULL_COPY_FN, a user
! reduction, an error handler), attribute values of MPI_ADDRESS_KIND and the
! legacy INTEGER ones, MPI_UNIVERSE_SIZE, MPI_Alloc_mem into a TYPE(C_PTR),
! MPI_SIZEOF, address arithmetic, strings, scalars for one-element arrays
! (a 1-D topology, one request), and spawn with MPI_ARGV_NULL,
! MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE (built, not run).  Built with
! Tern's mpifort, and unchanged with MPICH's mpif90 (run on Tern by
! mpich_binary.sh): it compiles against both modules.  At least 2 processes.
program use_mpi_idioms
  use mpi
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  external :: idioms_copy, idioms_sum, idioms_errh
  integer :: rank, nprocs, left, right, ierr, n, sz, i
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2), reqs(2)
  integer :: sendv(2), recvv(2), got
  integer :: dupcomm, keyval, keyval2, oldkey, oldval, op, errh, newtype, info, intercomm
  integer :: blens(2), types(2), procs(2), infos(2)
  integer :: dims1, coord1, comm1d, req, win, unit
  integer(kind=MPI_ADDRESS_KIND) :: val, universe, asize, addrs(2), lb, extent
  logical :: flag
  double precision :: t0, x(4)
  real :: rv(3)
  type(c_ptr) :: cbuf, wbuf
  integer, pointer :: ibuf(:), wints(:)
  integer(kind=MPI_ADDRESS_KIND) :: wsize, waddr
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=8) :: cmds(2)

  call MPI_Init(ierr)
  t0 = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  ! An array of statuses, and one of its columns as a status.
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, statuses, ierr)
  if (ierr /= MPI_SUCCESS .or. got /= left) stop 2
  if (statuses(MPI_SOURCE, 1) /= left .or. statuses(MPI_TAG, 1) /= 7) stop 3
  call MPI_Get_count(statuses(1, 1), MPI_INTEGER, n, ierr)
  if (n /= 1) stop 4
  ! The ignore sentinels.
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  if (got /= left) stop 5
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  if (got /= left) stop 6
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 10, got, 1, MPI_INTEGER, left, 10, &
                    MPI_COMM_WORLD, status, ierr)
  if (status(MPI_SOURCE) /= left .or. got /= left) stop 7
  call MPI_Test(reqs(1), flag, status, ierr)
  if (.not. flag) stop 8

  ! Scalars for one-element arrays: a 1-D topology, one request.
  dims1 = 0
  call MPI_Dims_create(nprocs, 1, dims1, ierr)
  if (dims1 /= nprocs) stop 25
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims1, .true., .false., comm1d, ierr)
  if (ierr /= MPI_SUCCESS) stop 26
  call MPI_Cart_coords(comm1d, rank, 1, coord1, ierr)
  if (coord1 /= rank) stop 27
  call MPI_Comm_free(comm1d, ierr)
  call MPI_Irecv(got, 1, MPI_INTEGER, left, 11, MPI_COMM_WORLD, req, ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 11, MPI_COMM_WORLD, ierr)
  call MPI_Waitall(1, req, statuses, ierr)
  if (got /= left .or. req /= MPI_REQUEST_NULL) stop 28

  ! MPI_IN_PLACE, and a user reduction passed by name.
  x = dble(rank)
  call MPI_Allreduce(MPI_IN_PLACE, x, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (any(x /= dble(nprocs * (nprocs - 1) / 2))) stop 9
  call MPI_Op_create(idioms_sum, .true., op, ierr)
  sendv = (/ 1, rank /)
  call MPI_Allreduce(sendv, recvv, 2, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  if (recvv(1) /= nprocs .or. recvv(2) /= nprocs * (nprocs - 1) / 2) stop 10
  call MPI_Op_free(op, ierr)

  ! Attributes: the predefined callbacks and a user copy function.
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval, &
                              0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_create_keyval(idioms_copy, MPI_COMM_NULL_DELETE_FN, keyval2, &
                              5_MPI_ADDRESS_KIND, ierr)
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, oldkey, 0, ierr)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, val, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval2, val, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, oldkey, 17, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
  call MPI_Comm_get_attr(dupcomm, keyval, val, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) stop 11
  call MPI_Comm_get_attr(dupcomm, keyval2, val, flag, ierr)
  if (.not. flag .or. val /= 47) stop 12
  call MPI_Attr_get(dupcomm, oldkey, oldval, flag, ierr)
  if (.not. flag .or. oldval /= 17) stop 13
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, universe, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. (flag .and. universe < nprocs)) stop 14
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (.not. flag .or. val < 32767) stop 15
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
  call MPI_Comm_free_keyval(keyval, ierr)
  call MPI_Comm_free_keyval(keyval2, ierr)
  call MPI_Keyval_free(oldkey, ierr)

  ! An error handler of the program's own.
  call MPI_Comm_create_errhandler(idioms_errh, errh, ierr)
  call MPI_Comm_set_errhandler(dupcomm, errh, ierr)
  call MPI_Errhandler_free(errh, ierr)
  call MPI_Comm_free(dupcomm, ierr)
  if (dupcomm /= MPI_COMM_NULL) stop 16

  ! Memory from the library, seen through a Fortran pointer.
  asize = 10 * 4
  call MPI_Alloc_mem(asize, MPI_INFO_NULL, cbuf, ierr)
  if (ierr /= MPI_SUCCESS) stop 17
  call c_f_pointer(cbuf, ibuf, (/ 10 /))
  ibuf = (/ (i, i = 1, 10) /)
  if (sum(ibuf) /= 55) stop 18
  call MPI_Free_mem(ibuf, ierr)
  ! A window's memory into a TYPE(C_PTR), and its address as an integer.
  call MPI_Win_allocate(asize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, wbuf, win, ierr)
  if (ierr /= MPI_SUCCESS) stop 32
  call c_f_pointer(wbuf, wints, (/ 10 /))
  wints = rank
  call MPI_Win_shared_query(win, MPI_PROC_NULL, wsize, unit, waddr, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Get_address(wints(1), waddr, ierr)
  if (waddr == 0 .or. wints(10) /= rank) stop 33
  call MPI_Win_free(win, ierr)

  ! MPI_SIZEOF, addresses and a structure of them.
  call MPI_Sizeof(rv, sz, ierr)
  if (sz /= 4) stop 19
  call MPI_Sizeof(x(1), sz, ierr)
  if (sz /= 8) stop 20
  call MPI_Get_address(x(1), addrs(1), ierr)
  call MPI_Get_address(x(3), addrs(2), ierr)
  addrs(2) = MPI_Aint_diff(addrs(2), addrs(1))
  addrs(1) = 0
  blens = 1
  types = MPI_DOUBLE_PRECISION
  call MPI_Type_create_struct(2, blens, addrs, types, newtype, ierr)
  call MPI_Type_commit(newtype, ierr)
  call MPI_Type_get_extent(newtype, lb, extent, ierr)
  if (lb /= 0 .or. extent /= 24) stop 21
  call MPI_Type_free(newtype, ierr)

  ! Strings.
  call MPI_Error_string(MPI_ERR_TAG, msg, n, ierr)
  if (n <= 0 .or. msg(n+1:) /= ' ') stop 22
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color', 'blue', ierr)
  call MPI_Info_get(info, 'color', MPI_MAX_INFO_VAL, value, flag, ierr)
  if (.not. flag .or. value /= 'blue') stop 23
  call MPI_Info_free(info, ierr)

  ! Spawn as programs write it; never run here.
  if (command_argument_count() > 1000) then
    call MPI_Comm_spawn('worker', MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &
                        intercomm, MPI_ERRCODES_IGNORE, ierr)
    cmds = 'worker'
    procs = 1
    infos = MPI_INFO_NULL
    call MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, procs, infos, 0, MPI_COMM_WORLD, &
                                 intercomm, MPI_ERRCODES_IGNORE, ierr)
  end if

  if (MPI_Wtime() < t0 .or. MPI_Wtick() <= 0d0) stop 24
  call MPI_Finalize(ierr)
  if (rank == 0) print *, 'ok'
end program use_mpi_idioms

subroutine idioms_copy(oldcomm, keyval, extra, valin, valout, flag, ierr)
  use mpi
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
  logical :: flag
  valout = valin + extra
  flag = .true.
  ierr = MPI_SUCCESS
  if (oldcomm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) ierr = MPI_ERR_OTHER
end subroutine idioms_copy

subroutine idioms_sum(invec, inoutvec, len, datatype)
  use mpi
  implicit none
  integer :: len, datatype
  integer :: invec(len), inoutvec(len)
  if (datatype /= MPI_INTEGER) stop 31
  inoutvec = inoutvec + invec
end subroutine idioms_sum

subroutine idioms_errh(comm, code)
  implicit none
  integer :: comm, code
  print *, 'error handler called: ', comm, code
  stop 30
end subroutine idioms_errh
