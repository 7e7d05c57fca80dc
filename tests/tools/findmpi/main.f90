! The Fortran half of the FindMPI test: the same line as main.c prints.
program findmpi_hello
  use mpi_f08
  implicit none
  integer :: rank, size, sum, length, eol
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Get_library_version(lib, length)
  eol = index(lib(1:length), achar(10))
  if (eol == 0) eol = length + 1
  call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  write (*, '(a,i0,a,i0,a,i0,a,a)') 'findmpi rank ', rank, ' of ', size, ' sum ', sum, &
      ' library ', lib(1:eol - 1)
  call MPI_Finalize()
  if (sum /= size * (size - 1) / 2) error stop 1
end program findmpi_hello
