// Preloaded into a process (LD_PRELOAD) to catch descriptor misuse around libdispatch's
// epoll set, which libdispatch answers with a crash in `_dispatch_event_loop_drain` long
// after the fact. Found the test harness closing pipes under live dispatch read sources
// (docs/benchmarks/journal-overload-2026-11-25-26.md, "Reading in small batches"). Use through scripts/dispatch-trap/run.
//
// libdispatch's set is the first epoll set given a registration whose data is 1 (its
// eventfd, DISPATCH_EPOLL_EVENTFD). Then:
//   - closing it, or dup2/dup3 onto its number: aborts, with a backtrace;
//   - registering in it anything whose data is not a pointer (a small id, such as another
//     epoll user's): aborts, with a backtrace;
//   - any of its own epoll_ctl calls that fails (EPOLL_CTL_DEL of a descriptor closed under
//     a live source fails with ENOENT or EBADF): logged with a backtrace, not fatal.
// Every line it writes to stderr starts with "*** dispatch-trap".
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

// Pointers below this are not libdispatch's muxnotes; its own timer and eventfd ids are 1 to 4.
enum { smallestPointer = 0x100000, largestOwnID = 4 };

static int dispatchSet = -1;

static void report(const char *what, int a, int b, uint64_t data, int error) {
    char line[256];
    int length = snprintf(line, sizeof line, "\n*** dispatch-trap pid %d tid %ld: %s (%d, %d, data 0x%llx) errno %d\n",
                          getpid(), (long)syscall(SYS_gettid), what, a, b, (unsigned long long)data, error);
    if (length > 0) (void)!write(2, line, (size_t)length);
    void *frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
}

int epoll_ctl(int set, int op, int fd, struct epoll_event *event) {
    static int (*real)(int, int, int, struct epoll_event *);
    if (!real) real = (int (*)(int, int, int, struct epoll_event *))dlsym(RTLD_NEXT, "epoll_ctl");
    if (op == EPOLL_CTL_ADD && event && event->data.u64 == 1 && dispatchSet < 0) dispatchSet = set;
    if (set == dispatchSet && op != EPOLL_CTL_DEL && event
        && event->data.u64 > largestOwnID && event->data.u64 < smallestPointer) {
        report("a registration in libdispatch's epoll set that is not libdispatch's", set, fd, event->data.u64, 0);
        abort();
    }
    int result = real(set, op, fd, event);
    int error = errno;
    if (result < 0 && set == dispatchSet) report("libdispatch's epoll_ctl failed", op, fd, event ? event->data.u64 : 0, error);
    errno = error;
    return result;
}

int close(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (fd >= 0 && fd == dispatchSet) {
        report("close of libdispatch's epoll set", fd, 0, 0, 0);
        abort();
    }
    return real(fd);
}

int dup2(int from, int to) {
    static int (*real)(int, int);
    if (!real) real = (int (*)(int, int))dlsym(RTLD_NEXT, "dup2");
    if (to >= 0 && to == dispatchSet) {
        report("dup2 onto libdispatch's epoll set", from, to, 0, 0);
        abort();
    }
    return real(from, to);
}

int dup3(int from, int to, int flags) {
    static int (*real)(int, int, int);
    if (!real) real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "dup3");
    if (to >= 0 && to == dispatchSet) {
        report("dup3 onto libdispatch's epoll set", from, to, 0, 0);
        abort();
    }
    return real(from, to, flags);
}
