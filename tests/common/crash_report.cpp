// Linked into every test program: a test program killed by a fatal signal first writes the
// signal and a backtrace to stderr, then dies of that signal as before. On a machine without a
// debugger (the lent GPU machine had no gdb) a bare "Segmentation fault" would say nothing about
// where. The program's own functions with external linkage carry their (mangled) names because
// the test programs export their symbols (`c++filt` demangles them); the others show as offsets
// into the program, which `addr2line -f -e PROGRAM OFFSET` names from its symbol table.
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <initializer_list>

namespace {

void write_text(const char* text) {
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

void report_and_die(int sig) {
    write_text("\n*** test program killed by signal ");
    const char number[] = {static_cast<char>('0' + sig / 10 % 10), static_cast<char>('0' + sig % 10), ' ', '\0'};
    write_text(sig < 10 ? number + 1 : number);
    write_text(strsignal(sig));
    write_text("; backtrace, innermost first:\n");
    void* frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    // SA_RESETHAND restored the default action: the signal raised again ends the program as before.
    raise(sig);
}

// A stack of its own, so that a stack overflow can be reported too.
alignas(16) char alternate_stack[1 << 16];

const bool installed = [] {
    void* warm[1];
    backtrace(warm, 1);  // the first call loads the unwinder, which allocates: not in the handler
    stack_t stack{};
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof alternate_stack;
    sigaltstack(&stack, nullptr);
    struct sigaction action {};
    action.sa_handler = report_and_die;
    action.sa_flags = SA_RESETHAND | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &action, nullptr);
    return true;
}();

}  // namespace
