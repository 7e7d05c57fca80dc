! Must not compile: `use mpi` gives MPI_COMM_RANK an explicit interface, so a
! REAL where the standard has the INTEGER rank is refused at compile time
! (use_mpi_reject.sh builds it, and the same program with an INTEGER rank).
program use_mpi_reject
  use mpi
  implicit none
  integer :: ierr
  real :: r
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Finalize(ierr)
end program use_mpi_reject
