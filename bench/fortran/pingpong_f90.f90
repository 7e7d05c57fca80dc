! 8-byte ping-pong through use mpi: half the round trip, in us.
program pingpong_f90
  use mpi
  implicit none
  integer, parameter :: iters = 200000, warm = 5000
  integer :: rank, i, ierr
  real(8) :: buf, t0, t1
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = 1.0d0
  do i = 1, iters + warm
    if (i == warm + 1) t0 = MPI_Wtime()
    if (rank == 0) then
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, ierr)
    end if
  end do
  t1 = MPI_Wtime()
  if (rank == 0) print '(a,f8.4,a)', 'use mpi    ', (t1 - t0) / iters / 2 * 1d6, ' us'
  call MPI_Finalize(ierr)
end program
