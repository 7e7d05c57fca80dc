#ifndef TERN_TOPO_BIND_H
#define TERN_TOPO_BIND_H

/* Counts the cores this process may run on (before binding narrows it). */
int tern_topo_usable_cores(void);

/* Binds this rank to one core (policy bunch) unless disabled; reports the
 * binding when asked. */
void tern_topo_bind(void);

#endif
