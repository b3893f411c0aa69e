#!/usr/bin/env bash
# Proves that the concurrency tests can fail: applies each deliberate mutation of the library (mutants/*.patch) to a
# scratch copy of the working tree, runs the commands that claim to catch it, and fails when one of them passes.
#
# Usage: mutants/check.sh [options] [ID|REGEX ...]      (no ID: every mutant)
#   --list            print the mutants (id, catches commands, what) and exit
#   --control         first run every distinct catches command once on the unmutated copy: it must pass, or the
#                     mutants that rely on it are ERROR (a test that always fails catches nothing)
#   --apply-only      only check each patch (header, paths, that it still applies): seconds, no build; result
#                     APPLIES instead of KILLED
#   --timeout DUR     per catches command (coreutils syntax: 90s, 20m, 1h; a bare number is seconds); default 20m
#   --record FILE     where the summary goes besides stdout ("-": nowhere). Default: mutants/last-run.txt for a full
#                     run (every mutant of mutants/, catches commands run), else target/mutants/<time>/summary.txt
#   --dir DIR         read the patches from DIR instead of mutants/
#   --keep            keep the scratch copies (their path is printed) instead of deleting them
# An argument selects the mutant of that id, or else every mutant whose id matches it as an extended regex.
#
# Results per mutant: KILLED (every catches command failed), SURVIVED (some catches command passed: that test has no
# teeth for this bug), STALE (the patch no longer applies: refresh it), REFUSED (it touches something other than
# */src/main/), TIMEOUT (a command ran out of time: tests should fail, not hang), ERROR (bad header, a command that
# could not run, code that no longer compiles, or a failed control run).
# Exit status: 0 when every selected mutant was KILLED (APPLIES with --apply-only), 1 otherwise, 2 for wrong usage.
# Logs of every command: target/mutants/<time>/ (ignored by git). How to add a mutant: mutants/README.md.
set -euo pipefail
# The whole script is one brace group, parsed before it runs: editing or checking out this file during a long run
# (bash otherwise reads a script as it goes) cannot change what the run does.
{

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
mutant_dir=$here
record=''
timeout_spec=20m
control=false
apply_only=false
keep=false
list=false
selectors=()

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

die_usage() {
  echo "check.sh: $*" >&2
  echo "check.sh: try --help" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=true ;;
    --control) control=true ;;
    --apply-only) apply_only=true control=false ;;
    --keep) keep=true ;;
    --timeout) [ $# -ge 2 ] || die_usage "--timeout needs a duration"; timeout_spec=$2; shift ;;
    --timeout=*) timeout_spec=${1#--timeout=} ;;
    --record) [ $# -ge 2 ] || die_usage "--record needs a file"; record=$2; shift ;;
    --record=*) record=${1#--record=} ;;
    --dir) [ $# -ge 2 ] || die_usage "--dir needs a directory"; mutant_dir=$2; shift ;;
    --dir=*) mutant_dir=${1#--dir=} ;;
    -h|--help) usage; exit 0 ;;
    --) shift; selectors+=("$@"); break ;;
    -*) die_usage "unknown option '$1'" ;;
    *) selectors+=("$1") ;;
  esac
  shift
done

[[ $timeout_spec =~ ^[0-9]+[smh]?$ ]] && [[ ! $timeout_spec =~ ^0+[smh]?$ ]] \
  || die_usage "--timeout takes a positive duration such as 90s, 20m or 1h, was '$timeout_spec'"
[ -d "$mutant_dir" ] || die_usage "no mutant directory '$mutant_dir'"
mutant_dir=$(cd "$mutant_dir" && pwd)
if [ -n "$record" ] && [ "$record" != - ]; then
  case "$record" in /*) ;; *) record=$PWD/$record ;; esac
fi

# ---------------------------------------------------------------------------------------------- reading the patches

ids=() files=() whats=() catches=() header_errors=()
shopt -s nullglob
for f in "$mutant_dir"/*.patch; do
  name=$(basename "$f" .patch)
  id='' what='' cmds='' problem=''
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      'diff --git '*) break ;;
      '# mutant:'*) id=$(sed 's/^# mutant:[[:space:]]*//;s/[[:space:]]*$//' <<<"$line") ;;
      '# what:'*) what=$(sed 's/^# what:[[:space:]]*//;s/[[:space:]]*$//' <<<"$line") ;;
      '# catches:'*)
        cmd=$(sed 's/^# catches:[[:space:]]*//;s/[[:space:]]*$//' <<<"$line")
        [ -n "$cmd" ] && cmds+=$cmd$'\n' ;;
    esac
  done <"$f"
  if ! grep -q '^diff --git ' "$f"; then
    problem="no 'diff --git' section: not a git patch"
  elif [ -z "$id" ]; then
    problem="no '# mutant: <id>' header line"
  elif [ "$id" != "$name" ]; then
    problem="header says mutant '$id' but the file is $name.patch (they must match)"
  elif [ -z "$what" ]; then
    problem="no '# what: <the bug it simulates>' header line"
  elif [ -z "$cmds" ]; then
    problem="no '# catches: <command>' header line"
  fi
  ids+=("$name") files+=("$f") whats+=("$what") catches+=("$cmds") header_errors+=("$problem")
done
shopt -u nullglob

[ ${#ids[@]} -gt 0 ] || { echo "check.sh: no mutants (*.patch) in $mutant_dir" >&2; exit 2; }

selected=()
if [ ${#selectors[@]} -eq 0 ]; then
  selected=("${!ids[@]}")
else
  declare -A chosen=()
  for s in "${selectors[@]}"; do
    hit=false
    for i in "${!ids[@]}"; do
      if [ "${ids[$i]}" = "$s" ]; then chosen[$i]=1; hit=true; fi
    done
    if ! $hit; then
      # grep -E rather than [[ =~ ]]: a malformed regex is then an error (status 2), not a silent non-match
      rc=0
      grep -qE -- "$s" <<<"" 2>/dev/null || rc=$?
      [ "$rc" -ne 2 ] || die_usage "'$s' is neither a mutant id nor a valid extended regex"
      for i in "${!ids[@]}"; do
        if grep -qE -- "$s" <<<"${ids[$i]}"; then chosen[$i]=1; hit=true; fi
      done
      $hit || die_usage "no mutant id is or matches '$s' (see --list)"
    fi
  done
  for i in "${!ids[@]}"; do
    [ -z "${chosen[$i]:-}" ] || selected+=("$i")
  done
fi

if $list; then
  for i in "${selected[@]}"; do
    printf '%-44s %s\n' "${ids[$i]}" "${whats[$i]:-(${header_errors[$i]})}"
    while IFS= read -r c; do
      [ -z "$c" ] || printf '%-44s   catches: %s\n' '' "$c"
    done <<<"${catches[$i]}"
  done
  exit 0
fi

# -------------------------------------------------------------------------------------------------- helpers

fmt_secs() {
  local s=$1
  if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# The paths a patch touches, one per line, from its file headers (never from hunk bodies, where a removed line may
# itself start with "--- ").
patch_paths() {
  awk '
    /^diff --git / { in_header = 1; n = split($0, f, " "); print substr(f[3], 3); print substr(f[n], 3); next }
    /^@@ / { in_header = 0; next }
    in_header && /^--- / { p = substr($0, 5); if (p != "/dev/null") print substr(p, 3); next }
    in_header && /^\+\+\+ / { p = substr($0, 5); if (p != "/dev/null") print substr(p, 3); next }
    in_header && /^(rename|copy) (from|to) / { print substr($0, index($0, $3)); next }
  ' "$1" | sed 's/\t.*//' | sort -u
}

# Prints the paths of a patch that are not library main sources (empty output: the patch is acceptable).
forbidden_paths() {
  patch_paths "$1" | awk '
    { bad = ($0 !~ /^([A-Za-z0-9._-]+\/)+src\/main\// || $0 ~ /(^|\/)\.\.(\/|$)/) }
    bad { print }
  '
}

# A catches command must never write to the shared ~/.m2 (other worktrees build against its snapshots).
installs_artifacts() {
  local word words
  read -ra words <<<"$1"
  for word in "${words[@]}"; do
    case "$word" in
      install|deploy|install:*|deploy:*) return 0 ;;
    esac
  done
  return 1
}

# A command that passes without running any test proves nothing: say a -Dtest selector that names no test (with
# -Dsurefire.failIfNoSpecifiedTests=false surefire then succeeds silently, or with "Tests run: 0", mutant or not).
# ran_no_test LOG COMMAND
ran_no_test() {
  ! grep -qE 'Tests run: [1-9]|run-jcstress: OK: [1-9]' "$1" || return 1
  grep -qE 'Tests run: 0|No tests to run' "$1" || [[ $2 == *-Dtest=* ]]
}

running_pid=''
on_signal() {
  trap - INT TERM
  if [ -n "$running_pid" ]; then
    kill -TERM "$running_pid" 2>/dev/null || true
    wait "$running_pid" 2>/dev/null || true
  fi
  echo "check.sh: interrupted" >&2
  exit 130
}

# run_cmd DIR COMMAND LOG: runs COMMAND with bash in DIR under the timeout; sets cmd_status (pass, fail, timeout,
# error) and cmd_detail. `timeout` puts the command in a process group of its own and, on expiry or when it is
# signalled itself, signals the whole group (Maven, surefire and jcstress forks included).
run_cmd() {
  local dir=$1 cmd=$2 log=$3 rc
  if installs_artifacts "$cmd"; then
    cmd_status=error cmd_detail="refused: a catches command must not install or deploy (that writes ~/.m2)"
    echo "$cmd_detail" >"$log"
    return
  fi
  { echo "\$ cd $dir && $cmd"; echo; } >"$log"
  ( cd "$dir" && exec timeout --kill-after=30s "$timeout_spec" bash -c "$cmd" ) >>"$log" 2>&1 </dev/null &
  running_pid=$!
  set +e
  wait "$running_pid"
  rc=$?
  set -e
  running_pid=''
  case $rc in
    0)
      if ran_no_test "$log" "$cmd"; then
        cmd_status=error cmd_detail="exit 0 without running a test: does the selector name one?"
      else
        cmd_status=pass cmd_detail="exit 0"
      fi ;;
    124|137) cmd_status=timeout cmd_detail="no result within $timeout_spec" ;;
    126|127) cmd_status=error cmd_detail="exit $rc: the command could not be run" ;;
    *)
      if grep -q 'COMPILATION ERROR' "$log"; then
        cmd_status=error cmd_detail="exit $rc, but from a compilation error: the mutated code must compile"
      else
        cmd_status=fail cmd_detail="exit $rc"
      fi ;;
  esac
}

# Copies the base snapshot (which carries the guard against installing into ~/.m2) to DIR.
scratch_copy() {
  cp -a "$base" "$1"
}

# -------------------------------------------------------------------------------------------------- the run

trap on_signal INT TERM
tmp=$(mktemp -d "${TMPDIR:-/tmp}/overlap-mutants.XXXXXX")
cleanup() {
  if $keep; then
    echo "check.sh: scratch copies kept in $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

stamp=$(date -u +%Y%m%dT%H%M%SZ)
logs=$root/target/mutants/$stamp
if [ -z "$record" ]; then
  # only a full run replaces the committed record of the last full run
  if [ ${#selectors[@]} -eq 0 ] && [ "$mutant_dir" = "$here" ] && ! $apply_only; then
    record=$here/last-run.txt
  else
    record=$logs/summary.txt
  fi
fi
mkdir -p "$logs"
run_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
commit=$(git -C "$root" rev-parse --short HEAD)
branch=$(git -C "$root" rev-parse --abbrev-ref HEAD)
dirty=$(git -C "$root" status --porcelain --untracked-files=normal -- . ":(exclude)mutants/last-run.txt" | wc -l)
dirty_note=''
[ "$dirty" -eq 0 ] || dirty_note=" + $dirty uncommitted change(s)"

# One snapshot of the working tree (tracked files and untracked files that are not ignored, so no target/) for
# the whole run: every mutant starts from the same code even if the tree is edited while the run goes on.
base=$tmp/base
mkdir -p "$base"
(
  cd "$root"
  git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do
    # tracked files deleted in the working tree are listed too: copy what exists
    if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
  done | tar --null -T - -cf - | tar -xf - -C "$base"
)
# A second guard besides installs_artifacts: Maven in the copy skips install and deploy whatever it is asked.
mkdir -p "$base/.mvn"
config=$base/.mvn/maven.config
if [ -s "$config" ] && [ -n "$(tail -c1 "$config")" ]; then echo >>"$config"; fi
printf '%s\n' -Dmaven.install.skip=true -Dmaven.deploy.skip=true >>"$config"
# builds that refer to ../shared (beside the repository) find it beside each copy too
if [ -d "$root/../shared" ]; then
  ln -s "$(cd "$root/../shared" && pwd)" "$tmp/shared"
fi

echo "check.sh: ${#selected[@]} mutant(s), commit $commit$dirty_note, timeout $timeout_spec per command, logs in ${logs#"$root"/}"

declare -A control_status=()
declare -A control_secs=()
control_order=()
if $control && ! $apply_only; then
  scratch_copy "$tmp/control"
  n=0
  for i in "${selected[@]}"; do
    [ -z "${header_errors[$i]}" ] || continue
    while IFS= read -r c; do
      [ -n "$c" ] && [ -z "${control_status[$c]:-}" ] || continue
      n=$((n + 1))
      control_order+=("$c")
      echo "== control $n: $c"
      t0=$(date +%s)
      run_cmd "$tmp/control" "$c" "$logs/control-$n.log"
      control_secs[$c]=$(( $(date +%s) - t0 ))
      control_status[$c]=$cmd_status
      if [ "$cmd_status" = pass ]; then
        echo "   passes on the unmutated copy, as it must ($(fmt_secs "${control_secs[$c]}"))"
      else
        echo "   FAILS on the unmutated copy: $cmd_detail ($(fmt_secs "${control_secs[$c]}"), log target/mutants/$stamp/control-$n.log)"
      fi
    done <<<"${catches[$i]}"
  done
  rm -rf "$tmp/control"
fi

results=() secs=() details=() cmd_lines=()
k=0
for i in "${selected[@]}"; do
  k=$((k + 1))
  id=${ids[$i]}
  f=${files[$i]}
  echo "== [$k/${#selected[@]}] $id: ${whats[$i]:-?}"
  t0=$(date +%s)
  result='' detail='' lines=''
  if [ -n "${header_errors[$i]}" ]; then
    result=ERROR detail=${header_errors[$i]}
  else
    bad=$(forbidden_paths "$f")
    if [ -n "$bad" ]; then
      result=REFUSED detail="touches more than library main sources (*/src/main/): $(tr '\n' ' ' <<<"$bad")"
    fi
    while IFS= read -r c; do
      if [ -z "$result" ] && [ -n "$c" ] && installs_artifacts "$c"; then
        result=REFUSED detail="a catches command installs or deploys (that writes ~/.m2): $c"
      fi
    done <<<"${catches[$i]}"
  fi
  if [ -z "$result" ] && ! apply_err=$(cd "$base" && GIT_CEILING_DIRECTORIES=$tmp git apply --check "$f" 2>&1); then
    result=STALE detail="no longer applies: $(head -2 <<<"$apply_err" | tr '\n' ' ')"
  fi
  if [ -z "$result" ] && $apply_only; then
    result=APPLIES detail="header and paths valid, applies cleanly (catches commands not run)"
  fi
  if [ -z "$result" ] && $control; then
    while IFS= read -r c; do
      if [ -n "$c" ] && [ "${control_status[$c]}" != pass ]; then
        result=ERROR detail="control run failed (${control_status[$c]}): $c"
        break
      fi
    done <<<"${catches[$i]}"
  fi
  if [ -z "$result" ]; then
    scratch=$tmp/$id
    scratch_copy "$scratch"
    if ! apply_err=$(cd "$scratch" && GIT_CEILING_DIRECTORIES=$tmp git apply "$f" 2>&1); then
      result=ERROR detail="git apply failed after its check passed: $(head -2 <<<"$apply_err" | tr '\n' ' ')"
    else
      n=0 passed=0 failed=0 errors=0 timeouts=0 total=$(printf '%s' "${catches[$i]}" | grep -c .)
      while IFS= read -r c; do
        [ -n "$c" ] || continue
        n=$((n + 1))
        log=$logs/$id-$n.log
        c0=$(date +%s)
        run_cmd "$scratch" "$c" "$log"
        cs=$(( $(date +%s) - c0 ))
        case $cmd_status in
          fail) failed=$((failed + 1)); verdict="caught" ;;
          pass) passed=$((passed + 1)); verdict="PASSED: the mutant survived it" ;;
          timeout) timeouts=$((timeouts + 1)); verdict="TIMEOUT" ;;
          *) errors=$((errors + 1)); verdict="ERROR" ;;
        esac
        echo "   catches $n/$total: $verdict ($cmd_detail, $(fmt_secs "$cs"))  $c"
        [ "$cmd_status" = fail ] || echo "   log: target/mutants/$stamp/$id-$n.log"
        lines+=$(printf '    %-8s %6s  %s' "$cmd_status" "$(fmt_secs "$cs")" "$c")$'\n'
      done <<<"${catches[$i]}"
      if [ "$passed" -gt 0 ]; then
        result=SURVIVED detail="$passed of $total catches command(s) passed"
      elif [ "$errors" -gt 0 ]; then
        result=ERROR detail="$errors of $total catches command(s) could not judge it (see the logs)"
      elif [ "$timeouts" -gt 0 ]; then
        result=TIMEOUT detail="$timeouts of $total catches command(s) timed out; the others failed"
      else
        result=KILLED detail="all $total catches command(s) failed"
      fi
    fi
    $keep || rm -rf "$scratch"
  fi
  s=$(( $(date +%s) - t0 ))
  echo "   => $result ($(fmt_secs "$s")): $detail"
  results+=("$result") secs+=("$s") details+=("$detail") cmd_lines+=("$lines")
done

# -------------------------------------------------------------------------------------------------- the summary

total_secs=$(( $(date +%s) - run_start ))
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
killed=0
good=KILLED
! $apply_only || good=APPLIES
for r in "${results[@]}"; do [ "$r" != "$good" ] || killed=$((killed + 1)); done
summary() {
  echo "# mutants/check.sh run"
  echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit:    $commit ($branch)$dirty_note"
  echo "machine:   $(nproc) cores, load average $load_start at the start, $load_end at the end"
  echo "java:      $(java -version 2>&1 | head -1)"
  echo "selection: $([ ${#selectors[@]} -eq 0 ] && echo "all" || echo "${selectors[*]}") (${#selected[@]} of ${#ids[@]} mutants)"
  echo "options:   timeout $timeout_spec per command, control runs $($control && echo on || echo off)$($apply_only \
    && echo ", apply only (no catches command run)")"
  echo "total:     $(fmt_secs "$total_secs"); $killed of ${#selected[@]} $($apply_only && echo apply || echo killed)"
  echo
  printf '%-44s %-9s %7s  %s\n' MUTANT RESULT TIME DETAIL
  local j
  for j in "${!results[@]}"; do
    printf '%-44s %-9s %7s  %s\n' "${ids[${selected[$j]}]}" "${results[$j]}" "$(fmt_secs "${secs[$j]}")" \
      "${details[$j]}"
    printf '%s' "${cmd_lines[$j]}"
  done
  if $control; then
    echo
    echo "control runs (unmutated copy; each must pass):"
    local c
    for c in "${control_order[@]}"; do
      printf '    %-8s %6s  %s\n' "${control_status[$c]}" "$(fmt_secs "${control_secs[$c]}")" "$c"
    done
  fi
}
echo
summary
if [ "$record" != - ]; then
  summary >"$record"
  echo
  echo "check.sh: summary written to $record"
fi
[ "$killed" -eq ${#selected[@]} ]
exit
}
