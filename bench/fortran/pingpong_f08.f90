! 8-byte ping-pong through use mpi_f08, half the round trip in us: with a
! scalar buffer, and with an array of one element (a descriptor of rank 1).
program pingpong_f08
  use mpi_f08
  implicit none
  integer, parameter :: iters = 200000, warm = 5000
  integer :: rank, i
  real(8) :: buf, arr(1), t0, t1
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  buf = 1.0d0
  do i = 1, iters + warm
    if (i == warm + 1) t0 = MPI_Wtime()
    if (rank == 0) then
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD)
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    else
      call MPI_Recv(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      call MPI_Send(buf, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD)
    end if
  end do
  t1 = MPI_Wtime()
  if (rank == 0) print '(a,f8.4,a)', 'f08 scalar ', (t1 - t0) / iters / 2 * 1d6, ' us'
  arr = 1.0d0
  do i = 1, iters + warm
    if (i == warm + 1) t0 = MPI_Wtime()
    if (rank == 0) then
      call MPI_Send(arr, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD)
      call MPI_Recv(arr, 1, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    else
      call MPI_Recv(arr, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      call MPI_Send(arr, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD)
    end if
  end do
  t1 = MPI_Wtime()
  if (rank == 0) print '(a,f8.4,a)', 'f08 array  ', (t1 - t0) / iters / 2 * 1d6, ' us'
  call MPI_Finalize()
end program
