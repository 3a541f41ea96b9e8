# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: the sanitizers' run-time
# options. Every finding is fatal; LeakSanitizer ignores only the third-party
# leaks named in scripts/lsan.supp, AddressSanitizer only the third-party
# memory errors named in scripts/asan.supp (each with its reason).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASAN_OPTIONS="suppressions=$root/scripts/asan.supp:detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
