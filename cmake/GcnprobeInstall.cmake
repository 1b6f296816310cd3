# What `cmake --install` puts where (docs/install.md), besides the program itself
# (app/CMakeLists.txt): the probe files, the documentation, a man page and a bash completion
# generated from the program's own help, and the Debian changelog and copyright files.
include(${CMAKE_CURRENT_LIST_DIR}/GcnprobeInstallDirs.cmake)

# The probe files the disputed suite runs, where the installed program looks for them
# (probe/probes_dir.cpp).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/probes/ DESTINATION ${GCNPROBE_INSTALL_PROBES_DIR}
        FILES_MATCHING PATTERN "*.probe")

# README.md beside the docs/ folder, as in the source tree, so that the links between them
# (docs/run.md, ci.md's example files in docs/ci/, ...) still lead somewhere.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${GCNPROBE_INSTALL_DOC_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${GCNPROBE_INSTALL_DOC_DIR}/docs)

# gcnprobe.1 and the bash completion, written from `gcnprobe --help` and each subcommand's
# --help once the program is linked (GcnprobeHelpDocs.cmake).
set(gcnprobe_gen "${GCNPROBE_GENERATED_DIR}")
set(gcnprobe_man "${GCNPROBE_GENERATED_MAN}")
set(gcnprobe_completion "${GCNPROBE_GENERATED_COMPLETION}")
set(gcnprobe_changelog "${gcnprobe_gen}/changelog.Debian")
if(GCNPROBE_GZIP)
  set(gcnprobe_changelog_commands
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/packaging/changelog.Debian
              ${gcnprobe_changelog}
      COMMAND ${GCNPROBE_GZIP} -n -9 -f ${gcnprobe_changelog})
  string(APPEND gcnprobe_changelog ".gz")
else()
  set(gcnprobe_changelog_commands
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/packaging/changelog.Debian
              ${gcnprobe_changelog})
endif()
add_custom_command(
  OUTPUT ${gcnprobe_man} ${gcnprobe_completion}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${gcnprobe_gen}/bash-completion
  # A sanitizer build's program must not fail the build over a leak report at exit.
  COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
          ${CMAKE_COMMAND} -DGCNPROBE=$<TARGET_FILE:gcnprobe> -DVERSION=${PROJECT_VERSION}
          -DMAN_OUT=${gcnprobe_man} -DCOMPLETION_OUT=${gcnprobe_completion}
          -DGZIP=${GCNPROBE_GZIP} -P ${CMAKE_CURRENT_LIST_DIR}/GcnprobeHelpDocs.cmake
  DEPENDS gcnprobe ${CMAKE_CURRENT_LIST_DIR}/GcnprobeHelpDocs.cmake
  COMMENT "Writing gcnprobe.1 and the bash completion from gcnprobe --help"
  VERBATIM)
add_custom_command(
  OUTPUT ${gcnprobe_changelog}
  ${gcnprobe_changelog_commands}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog.Debian
  VERBATIM)
add_custom_target(gcnprobe_install_files ALL
                  DEPENDS ${gcnprobe_man} ${gcnprobe_completion} ${gcnprobe_changelog})

install(FILES ${gcnprobe_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${gcnprobe_completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${gcnprobe_changelog} ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION ${GCNPROBE_INSTALL_DOC_DIR})
