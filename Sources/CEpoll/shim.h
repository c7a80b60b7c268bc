// Linux's epoll for the replay client's receiver (Sources/LoadTester/Replay/ReplayReceiver.swift):
// Glibc's Swift module leaves sys/epoll.h out.
#include <sys/epoll.h>
