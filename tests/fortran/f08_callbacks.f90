! Through `use mpi_f08`: Fortran procedures that MPI calls back (reduction
! operations, an error handler, attribute copy and delete functions), the
! predefined copy and delete callbacks, MPI_Sizeof, and pmpi_f08.  Run on 2 processes;
! stops with a distinct code at the first wrong value.
module f08_callbacks_procs
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  integer :: handled = MPI_SUCCESS, copies = 0, deletes = 0
contains
  ! inoutvec = invec + inoutvec + 1: associative and commutative, and not
  ! an operation MPI has, so the result shows that this code ran.
  subroutine plus_one(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) stop 90
    call c_f_pointer(invec, a, (/ len /))
    call c_f_pointer(inoutvec, b, (/ len /))
    b = a + b + 1
  end subroutine plus_one

  subroutine plus_one_c(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer(kind=MPI_COUNT_KIND) :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    if (datatype /= MPI_INTEGER) stop 91
    call c_f_pointer(invec, a, (/ len /))
    call c_f_pointer(inoutvec, b, (/ len /))
    b = a + b + 1
  end subroutine plus_one_c

  subroutine record_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    if (comm == MPI_COMM_NULL) stop 92
    handled = error_code
  end subroutine record_error

  subroutine copy_plus_one(oldcomm, comm_keyval, extra_state, attribute_val_in, &
                           attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    if (extra_state /= 42) stop 93
    attribute_val_out = attribute_val_in + 1
    flag = .true.
    copies = copies + 1
    ierror = MPI_SUCCESS
  end subroutine copy_plus_one

  subroutine count_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: comm_keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    if (extra_state /= 42) stop 94
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine count_delete
end module f08_callbacks_procs

program f08_callbacks
  use mpi_f08
  use pmpi_f08
  use f08_callbacks_procs
  use, intrinsic :: iso_fortran_env, only : int64
  implicit none
  integer :: rank, size, v(3), eclass, keyval, dupkey, nullkey, n
  integer(kind=MPI_ADDRESS_KIND) :: val
  logical :: flag
  type(MPI_Op) :: op, op_c
  type(MPI_Errhandler) :: eh
  type(MPI_Comm) :: comm, comm2
  double precision :: d(4)
  integer(kind=int64) :: big

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)

  ! User reductions, in both the default and the large-count form.
  call MPI_Op_create(plus_one, .true., op)
  v = (/ rank, 10 * rank, 1 /)
  call MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (any(v /= (/ 1 + 1, 10 + 1, 2 + 1 /))) stop 2
  call MPI_Op_free(op)
  if (op /= MPI_OP_NULL) stop 3
  call MPI_Op_create_c(plus_one_c, .true., op_c)
  v = (/ rank, 10 * rank, 1 /)
  call MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_INTEGER, op_c, MPI_COMM_WORLD)
  if (any(v /= (/ 2, 11, 3 /))) stop 4
  call MPI_Op_free(op_c)

  ! An error handler written in Fortran, called with the error's code.
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_create_errhandler(record_error, eh)
  call MPI_Comm_set_errhandler(comm, eh)
  call MPI_Errhandler_free(eh)
  call MPI_Send(v, 1, MPI_INTEGER, size + 5, 0, comm)
  call MPI_Error_class(handled, eclass)
  if (eclass /= MPI_ERR_RANK) stop 5

  ! Attribute callbacks: Fortran's, then the predefined ones.
  call MPI_Comm_create_keyval(copy_plus_one, count_delete, keyval, 42_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dupkey, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, nullkey, &
                              0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, keyval, 7_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, dupkey, 70_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, nullkey, 700_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(comm, comm2)
  if (copies /= 1) stop 6
  call MPI_Comm_get_attr(comm2, keyval, val, flag)
  if (.not. flag .or. val /= 8) stop 7
  call MPI_Comm_get_attr(comm2, dupkey, val, flag)
  if (.not. flag .or. val /= 70) stop 8
  call MPI_Comm_get_attr(comm2, nullkey, val, flag)
  if (flag) stop 9
  call MPI_Comm_free(comm2)
  if (deletes /= 1) stop 10
  call MPI_Comm_delete_attr(comm, keyval)
  if (deletes /= 2) stop 11
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_free_keyval(dupkey)
  call MPI_Comm_free_keyval(nullkey)
  call MPI_Comm_free(comm)

  ! MPI_Sizeof, scalar and array.
  call MPI_Sizeof(big, n)
  if (n /= 8) stop 12
  call MPI_Sizeof(d, n)
  if (n /= 8) stop 13
  call MPI_Sizeof(v(1), n)
  if (n /= 4) stop 14

  ! The profiling interface: PMPI_ generics of the pmpi_f08 module.
  call PMPI_Comm_size(MPI_COMM_WORLD, n)
  if (n /= size) stop 15
  v = 1
  call PMPI_Allreduce(MPI_IN_PLACE, v(1:3:2), 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(v /= (/ size, 1, size /))) stop 16
  if (PMPI_Wtime() <= 0d0) stop 17

  call MPI_Finalize()
  if (rank == 0) print *, 'ok'
end program f08_callbacks
