#ifndef GESTURED_ALLOCATION_COUNTER_H
#define GESTURED_ALLOCATION_COUNTER_H
/// Number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// made by this process since it started. Linked only into gestured-bench.
long long gestured_allocation_count(void);
#endif
