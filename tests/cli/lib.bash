# Shared helpers of the CLI test scripts (sourced; not a test itself: CTest
# runs tests/cli/*.sh only).

fail() { echo "FAIL: $*"; exit 1; }

# expect_cli_error EXPECTED COMMAND...
# Runs COMMAND in the current directory and checks the contract for bad
# input (docs/design.md): non-zero exit, nothing on stdout, exactly one line on
# stderr equal to "nanoscatter: error: EXPECTED" (a trailing '*' in EXPECTED
# makes it a prefix), and no file left behind: the directory must list
# exactly $inputs afterwards (set it after creating the input files).
expect_cli_error() {
  local expected=$1
  shift
  "$@" > stdout.txt 2> stderr.txt
  local rc=$?
  [ $rc -ne 0 ] || fail "exit 0 for: $*"
  [ -s stdout.txt ] && fail "stdout not empty for: $*"
  [ "$(wc -l < stderr.txt)" = 1 ] || fail "not one line for: $*: $(cat stderr.txt)"
  local got
  got=$(cat stderr.txt)
  if [[ $expected == *'*' ]]; then
    [[ $got == "nanoscatter: error: ${expected%\*}"* ]] || fail "for: $*
  got:      $got
  expected: nanoscatter: error: $expected"
  else
    [ "$got" = "nanoscatter: error: $expected" ] || fail "for: $*
  got:      $got
  expected: nanoscatter: error: $expected"
  fi
  rm -f stdout.txt stderr.txt
  [ "$(ls -A | sort)" = "$inputs" ] || fail "files left behind for: $*: $(ls -A)"
}
