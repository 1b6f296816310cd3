#!/usr/bin/env bash
# Sets up (packages + build) and runs every test with ctest.
# Usage: scripts/test.sh [--sanitize]   (--sanitize: ASan/UBSan build in build-asan)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GCNPROBE_ROOT"
build_dir=build
ctest_args=()
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  # Heavy checks run once, in the normal build, as the driver checks on Mesa 25 do (they are not
  # registered here): the browser test (headless Chromium), the reach
  # oracle (tests/reference/reach_test.cpp: the executor under every combination of the
  # addressing policy points per case), the exhaustive conversion-table comparisons
  # (tests/reference/convert_table_test.cpp: millions of elements, code by code), the batch
  # load's lane-by-lane comparison with the executor over every format pair
  # (tests/reference/load_batch_test.cpp; its smaller tests still run here), and the two ISA
  # checks of every case on one chip per generation (tests/app/isa_cli_test.cpp), the
  # exported shaders compiled again with glslangValidator (tests/harness/repro), the generated
  # opcode tables and the lane program compared with llvm-mc line by line (their parsers and
  # the assembler's stay here: tests/reference/llvm_mc_test.cpp), and the whole-suite runs of
  # `survey` and of `merge`'s three shards.
  ctest_args+=(-LE browser)
  heavy=(
    'Adversarial/ReachOracle'
    'Reach\.RandomCasesEqualExecutor'
    'Reach\.NoAccessCases'
    'Reach\.RejectsWhatExecuteRejectsAndPlansTheReservedFormatWide'
    'FormatLoadTable\.EqualsLoadElementOnEveryFieldValue'
    'FormatLoadTable\.SameConversionExactlyWhereEveryCodeAgrees'
    'FormatLoadBatch\.EqualsExecuteLaneByLane'
    'IsaCli\.EveryCaseVerifiedOrExplainedOnOneChipPerGeneration'
    'IsaCli\.ReadmeNumbersAreWhatIsaFinds'
    'Reproduction\.ShaderIsTheEmbeddedOneAndValid'
    'ScalarTable\.Gfx.*LlvmMc.*'
    'VgprTable\.Gfx.*'
    'InstructionEffects\.VopDestinationsAreWhatLlvmMcPrints'
    'LaneProgram\.EveryLineIsWhatLlvmMcAssemblesFromItsText'
    'SurveyCli\.(OnTheDefaultDeviceEveryStepRuns|AStepPastItsTimeBudget|DryRunOnTheNullDevice).*'
    'MergeCli\.ThreeShardsMergedEqualOneRun'
  )
  ctest_args+=(-E "^($(IFS='|'; echo "${heavy[*]}"))")
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
  export LSAN_OPTIONS="suppressions=$GCNPROBE_ROOT/scripts/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
bash scripts/setup.sh "$@"
# Line-coverage counts of an earlier run belong to objects that may since have been rebuilt:
# the profiling runtime cannot merge those and says so on every process's stderr, which the
# CLI tests read. The report (scripts/coverage.sh) is of this run.
[ "$build_dir" = build-asan ] && find "$build_dir" -name '*.gcda' -delete
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "${ctest_args[@]}"
