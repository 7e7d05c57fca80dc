/* The name service of MPI_Publish_name, MPI_Lookup_name and
 * MPI_Unpublish_name (nameserv.c): 0, or an error code with its message. */
#ifndef TERN_COMM_NAMESERV_H
#define TERN_COMM_NAMESERV_H

#include <mpi.h>

int tern_name_publish(const char *service, const char *port);
int tern_name_lookup(const char *service, char *port); /* port: MPI_MAX_PORT_NAME bytes */
int tern_name_unpublish(const char *service, const char *port);

#endif
