// Emscripten's libc declares wait4 but has no definition; `bench --compare` (which runs another build as a child
// process, and already gets -1 from fork here) links against it. No processes under node or in a browser: ENOSYS.
#include <errno.h>
#include <sys/resource.h>
#include <sys/wait.h>

pid_t wait4(pid_t pid, int* status, int options, struct rusage* usage) {
  (void)pid;
  (void)status;
  (void)options;
  (void)usage;
  errno = ENOSYS;
  return -1;
}
