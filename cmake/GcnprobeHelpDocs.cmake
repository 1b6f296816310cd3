# Writes gcnprobe's man page (gcnprobe.1, gzipped when GZIP is given) and its bash completion
# from the program's own help: `gcnprobe --help` names the global options and the subcommands,
# `gcnprobe SUBCOMMAND --help` each subcommand's options and arguments. Run at build time,
# after the program is linked, so neither file can drift from the options the program has.
#
#   cmake -DGCNPROBE=<program> -DVERSION=<version> -DMAN_OUT=<gcnprobe.1[.gz]>
#         -DCOMPLETION_OUT=<file> [-DGZIP=<gzip>] -P GcnprobeHelpDocs.cmake
#
# CLI11's help layout (CLI11 2.x, CLI::Formatter): a description, "Usage: ...", then sections
# "Positionals:", "Options:", "Subcommands:" whose entries are "  NAME-COLUMN  description",
# the description continued (or, after a long name column, started) on lines indented past the
# name column. Hidden subcommands (no description) are not listed, so they stay out.
cmake_minimum_required(VERSION 3.25)

foreach(v GCNPROBE VERSION MAN_OUT COMPLETION_OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "GcnprobeHelpDocs.cmake: -D${v}=... is required")
  endif()
endforeach()

# CMake lists split on ';' and treat '[' ']' and '\' specially: the help text is carried
# encoded (@A @S @L @R @B) and decoded only when written out.
function(gcnprobe_encode out text)
  string(REPLACE "@" "@A" text "${text}")
  string(REPLACE ";" "@S" text "${text}")
  string(REPLACE "[" "@L" text "${text}")
  string(REPLACE "]" "@R" text "${text}")
  string(REPLACE "\\" "@B" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
function(gcnprobe_decode out text)
  string(REPLACE "@B" "\\" text "${text}")
  string(REPLACE "@R" "]" text "${text}")
  string(REPLACE "@L" "[" text "${text}")
  string(REPLACE "@S" ";" text "${text}")
  string(REPLACE "@A" "@" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Runs `gcnprobe ARGN --help` and parses it into variables prefixed with `p`:
#   p_DESC, p_USAGE; p_ENTRIES (ids); per id: p_<id>_KIND (option, positional, subcommand),
#   p_<id>_NAMES (the names, e.g. "-h,--help"), p_<id>_ARG (type and annotations),
#   p_<id>_DESC. All text encoded.
macro(gcnprobe_parse_help p)
  execute_process(COMMAND "${GCNPROBE}" ${ARGN} --help OUTPUT_VARIABLE _text
                  ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR _text STREQUAL "")
    message(FATAL_ERROR "`${GCNPROBE} ${ARGN} --help` failed (exit ${_rc}): ${_err}")
  endif()
  gcnprobe_encode(_text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  set(${p}_DESC "")
  set(${p}_USAGE "")
  set(${p}_ENTRIES "")
  set(_section "")
  set(_id "")
  set(_n 0)
  foreach(_line IN LISTS _lines)
    if(_section STREQUAL "" AND _line MATCHES "^Usage: [^ ]+(.*)$")
      set(${p}_USAGE "gcnprobe${CMAKE_MATCH_1}")
      set(_section usage)
    elseif(_section STREQUAL "")
      string(STRIP "${_line}" _line)
      if(NOT _line STREQUAL "")
        string(APPEND ${p}_DESC " ${_line}")
      endif()
    elseif(_line MATCHES "^(Positionals|Options|Subcommands):$")
      set(_section "${CMAKE_MATCH_1}")
      set(_id "")
    elseif(_line MATCHES "^Exit status: ")
      # The top-level footer: the page has its own EXIT STATUS section (below).
      set(_section footer)
      set(_id "")
    elseif(_section STREQUAL "footer")
    elseif(_line MATCHES "^      +([^ ].*)$" AND NOT _id STREQUAL "")
      # The description continued, or started below a long name column.
      string(APPEND ${p}_${_id}_DESC " ${CMAKE_MATCH_1}")
    elseif(_line MATCHES "^  ([^ ]+(( [^ ]+)*))(  +(.*))?$")
      set(_column "${CMAKE_MATCH_1}")
      set(_desc "${CMAKE_MATCH_5}")
      math(EXPR _n "${_n} + 1")
      set(_id "e${_n}")
      list(APPEND ${p}_ENTRIES ${_id})
      if(_section STREQUAL "Options")
        set(${p}_${_id}_KIND option)
      elseif(_section STREQUAL "Positionals")
        set(${p}_${_id}_KIND positional)
      elseif(_section STREQUAL "Subcommands")
        set(${p}_${_id}_KIND subcommand)
      else()
        message(FATAL_ERROR "`gcnprobe ${ARGN} --help`: an entry outside any section: ${_line}")
      endif()
      # (Not REGEX REPLACE: its "^" matches again after each replacement.)
      string(REGEX MATCH "^[^ ]+" ${p}_${_id}_NAMES "${_column}")
      set(${p}_${_id}_ARG "")
      if(_column MATCHES "^[^ ]+ (.+)$")
        set(${p}_${_id}_ARG "${CMAKE_MATCH_1}")
      endif()
      set(${p}_${_id}_DESC "${_desc}")
    elseif(NOT _line STREQUAL "")
      message(FATAL_ERROR "`gcnprobe ${ARGN} --help`: a line this script cannot place "
                          "(CLI11's help layout changed?): ${_line}")
    endif()
  endforeach()
  string(STRIP "${${p}_DESC}" ${p}_DESC)
endmacro()

# An option takes a value when its name column has a type after the names ("--suite TEXT",
# "--jobs UINT", "--gen TEXT=gfx9"), not only annotations ("--x REQUIRED", "--y Excludes: ...").
function(gcnprobe_takes_value out arg)
  set(r FALSE)
  if(arg MATCHES "^([^ ]+)" AND NOT CMAKE_MATCH_1 MATCHES "^(REQUIRED|Excludes:|Needs:)$")
    set(r TRUE)
  endif()
  set(${out} ${r} PARENT_SCOPE)
endfunction()

# Text for roff: decoded, backslashes and hyphens escaped, no line starting a request.
function(gcnprobe_roff out text)
  gcnprobe_decode(text "${text}")
  string(STRIP "${text}" text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  if(text MATCHES "^[.']")
    set(text "\\&${text}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# ".TP" entries of one help: positionals first, then options.
function(gcnprobe_roff_entries out p)
  set(r "")
  foreach(kind positional option)
    foreach(id IN LISTS ${p}_ENTRIES)
      if(NOT ${p}_${id}_KIND STREQUAL kind)
        continue()
      endif()
      string(REPLACE "," ";" names "${${p}_${id}_NAMES}")
      set(head "")
      foreach(n IN LISTS names)
        gcnprobe_roff(n "${n}")
        if(NOT head STREQUAL "")
          string(APPEND head ", ")
        endif()
        if(kind STREQUAL "positional")
          string(APPEND head "\\fI${n}\\fR")
        else()
          string(APPEND head "\\fB${n}\\fR")
        endif()
      endforeach()
      if(NOT ${p}_${id}_ARG STREQUAL "")
        gcnprobe_roff(arg "${${p}_${id}_ARG}")
        string(APPEND head " \\fI${arg}\\fR")
      endif()
      gcnprobe_roff(desc "${${p}_${id}_DESC}")
      string(APPEND r ".TP\n${head}\n${desc}\n")
    endforeach()
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# Option names (space-separated) of one help, and those taking a value.
function(gcnprobe_option_words out_all out_valued p)
  set(all "")
  set(valued "")
  foreach(id IN LISTS ${p}_ENTRIES)
    if(NOT ${p}_${id}_KIND STREQUAL option)
      continue()
    endif()
    string(REPLACE "," ";" names "${${p}_${id}_NAMES}")
    gcnprobe_takes_value(v "${${p}_${id}_ARG}")
    foreach(n IN LISTS names)
      if(NOT n MATCHES "^-[-A-Za-z0-9_]+$")
        message(FATAL_ERROR "unexpected option name '${n}' in gcnprobe's help")
      endif()
      list(APPEND all "${n}")
      if(v)
        list(APPEND valued "${n}")
      endif()
    endforeach()
  endforeach()
  list(JOIN all " " all)
  list(JOIN valued " " valued)
  set(${out_all} "${all}" PARENT_SCOPE)
  set(${out_valued} "${valued}" PARENT_SCOPE)
endfunction()

gcnprobe_parse_help(top)
set(subcommands "")
foreach(id IN LISTS top_ENTRIES)
  if(top_${id}_KIND STREQUAL subcommand)
    list(APPEND subcommands "${top_${id}_NAMES}")
    set(subdesc_${top_${id}_NAMES} "${top_${id}_DESC}")
  endif()
endforeach()
if(NOT subcommands)
  message(FATAL_ERROR "`gcnprobe --help` lists no subcommands")
endif()
foreach(s IN LISTS subcommands)
  gcnprobe_parse_help(sub_${s} ${s})
endforeach()

# The man page.
set(name_desc "${top_DESC}")
string(REGEX REPLACE "^gcnprobe: " "" name_desc "${name_desc}")
gcnprobe_roff(name_desc "${name_desc}")
gcnprobe_roff(version_text "${VERSION}")
set(man ".\\\" Generated at build time from `gcnprobe --help` and every subcommand's --help\n")
string(APPEND man ".\\\" (cmake/GcnprobeHelpDocs.cmake). Do not edit.\n")
string(APPEND man ".TH GCNPROBE 1 \"\" \"gcnprobe ${version_text}\" \"User Commands\"\n")
string(APPEND man ".SH NAME\ngcnprobe \\- ${name_desc}\n")
string(APPEND man ".SH SYNOPSIS\n.B gcnprobe\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR "
       "[\\fICOMMAND OPTIONS\\fR] [\\fIARGUMENTS\\fR]\n")
string(APPEND man ".SH DESCRIPTION\n${name_desc}.\n.PP\nThe commands are:\n")
foreach(s IN LISTS subcommands)
  gcnprobe_roff(d "${subdesc_${s}}")
  string(APPEND man ".TP\n\\fB${s}\\fR\n${d}\n")
endforeach()
string(APPEND man ".SH OPTIONS\nThese options apply to every command and may also follow it.\n")
gcnprobe_roff_entries(entries top)
string(APPEND man "${entries}")
string(APPEND man ".SH COMMANDS\n")
foreach(s IN LISTS subcommands)
  gcnprobe_roff(usage "${sub_${s}_USAGE}")
  gcnprobe_roff(d "${sub_${s}_DESC}")
  gcnprobe_roff_entries(entries sub_${s})
  string(APPEND man ".SS ${s}\n.nf\n${usage}\n.fi\n.PP\n${d}\n${entries}")
endforeach()
string(APPEND man [=[
.SH ENVIRONMENT
.TP
.B GCNPROBE_DRIVER
the Vulkan driver, as \fB\-\-driver\fR.
.TP
.B GCNPROBE_RADV_NULL
the GCN family for RADV's null device, as \fB\-\-radv\-null\fR.
.TP
.B GCNPROBE_PROBES_DIR
the folder of probe files the \fBdisputed\fR suite runs, instead of the installed one.
.SH FILES
.TP
.I ../share/gcnprobe/probes
relative to the folder of the \fBgcnprobe\fR program (\fI/usr/share/gcnprobe/probes\fR for
\fI/usr/bin/gcnprobe\fR): the shipped probe files, one per disputed behaviour.
.SH EXIT STATUS
0 success; 1 the check found failures; 2 bad input; 3 infrastructure (output that cannot be
written, no Vulkan loader or device, an installation without its probes, an internal error).
.SH SEE ALSO
The documentation in \fI/usr/share/doc/gcnprobe/\fR (README.md and one page per command).
]=])
if(GZIP)
  string(REGEX REPLACE "\\.gz$" "" man_plain "${MAN_OUT}")
  file(WRITE "${man_plain}" "${man}")
  # -n: no name or time stamp in the header, so the same page gives the same bytes.
  execute_process(COMMAND "${GZIP}" -n -9 -f "${man_plain}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${MAN_OUT}")
    message(FATAL_ERROR "${GZIP} could not write ${MAN_OUT}")
  endif()
else()
  file(WRITE "${MAN_OUT}" "${man}")
endif()

# The bash completion.
# Options whose value is a name from a fixed set: `gcnprobe _completion-values` prints one line
# per option, the option then its names.
execute_process(COMMAND "${GCNPROBE}" _completion-values OUTPUT_VARIABLE _values
                ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR _values STREQUAL "")
  message(FATAL_ERROR "`${GCNPROBE} _completion-values` failed (exit ${_rc}): ${_err}")
endif()
string(REPLACE "\n" ";" _value_lines "${_values}")
set(value_cases "")
foreach(_line IN LISTS _value_lines)
  if(_line MATCHES "^(--[a-z0-9-]+) ([a-z0-9 .-]+)$")
    string(APPEND value_cases
           "    ${CMAKE_MATCH_1}) COMPREPLY=(\$(compgen -W \"${CMAKE_MATCH_2}\" -- \"\$cur\")); return 0 ;;\n")
  elseif(NOT _line STREQUAL "")
    message(FATAL_ERROR "`${GCNPROBE} _completion-values`: cannot read the line '${_line}'")
  endif()
endforeach()
gcnprobe_option_words(global_opts global_valued top)
list(JOIN subcommands " " commands_words)
set(cases "")
foreach(s IN LISTS subcommands)
  gcnprobe_option_words(opts valued sub_${s})
  string(APPEND cases "    ${s}) opts=\"${opts}\" valued=\"${valued}\" ;;\n")
endforeach()
file(WRITE "${COMPLETION_OUT}" "# bash completion for gcnprobe -*- shell-script -*-
# Generated at build time from `gcnprobe --help` and every subcommand's --help
# (cmake/GcnprobeHelpDocs.cmake). Do not edit.
_gcnprobe() {
  local cur=\"\${COMP_WORDS[COMP_CWORD]}\" prev=\"\"
  ((COMP_CWORD > 0)) && prev=\"\${COMP_WORDS[COMP_CWORD - 1]}\"
  local commands=\"${commands_words}\"
  local global_opts=\"${global_opts}\" global_valued=\"${global_valued}\"
  local cmd=\"\" opts=\"\" valued=\"\" i w
  # The command is the first word that is one, skipping the values of global options.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\"\${COMP_WORDS[i]}\"
    if [[ \" \$global_valued \" == *\" \$w \"* ]]; then
      ((i++))
      continue
    fi
    if [[ \" \$commands \" == *\" \$w \"* ]]; then
      cmd=\"\$w\"
      break
    fi
  done
  case \"\$cmd\" in
${cases}  esac
  # A value from a fixed set of names (the program's own lists).
  case \"\$prev\" in
${value_cases}  esac
  if [[ -n \"\$prev\" && \" \$global_valued \$valued \" == *\" \$prev \"* ]]; then
    # The value of an option: a driver folder or 'system' for --driver, else a file name.
    compopt -o filenames 2>/dev/null
    if [[ \"\$prev\" == --driver ]]; then
      COMPREPLY=(\$(compgen -W system -- \"\$cur\") \$(compgen -d -- \"\$cur\"))
    else
      COMPREPLY=(\$(compgen -f -- \"\$cur\"))
    fi
    return 0
  fi
  if [[ \"\$cur\" == -* ]]; then
    COMPREPLY=(\$(compgen -W \"\$opts \$global_opts\" -- \"\$cur\"))
  elif [[ -z \"\$cmd\" ]]; then
    COMPREPLY=(\$(compgen -W \"\$commands\" -- \"\$cur\"))
  else
    compopt -o filenames 2>/dev/null
    COMPREPLY=(\$(compgen -f -- \"\$cur\"))
  fi
  return 0
}
complete -F _gcnprobe gcnprobe
")
