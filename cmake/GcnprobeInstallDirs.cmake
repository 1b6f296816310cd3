# Where `cmake --install` and the Debian package put gcnprobe's files (GNU layout), the probe
# folder's path relative to the program's (which the installed program uses to find its
# probes: probe/probes_dir.cpp), and where the build writes the generated man page and bash
# completion. Included by probe/, app/, tests/ and the install rules, so all agree.
include(GNUInstallDirs)
set(GCNPROBE_INSTALL_PROBES_DIR "${CMAKE_INSTALL_DATADIR}/gcnprobe/probes")
set(GCNPROBE_INSTALL_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/gcnprobe")
file(RELATIVE_PATH GCNPROBE_PROBES_INSTALL_RELATIVE "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_FULL_DATADIR}/gcnprobe/probes")
# The clrxdisasm stand-in ACO runs on gfx6/7 (app/clrx_dir.h) is a helper program, not a command:
# it goes to libexec, and the program finds it there relative to its own path.
set(GCNPROBE_INSTALL_LIBEXEC_DIR "${CMAKE_INSTALL_LIBEXECDIR}/gcnprobe")
file(RELATIVE_PATH GCNPROBE_CLRX_INSTALL_RELATIVE "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_FULL_LIBEXECDIR}/gcnprobe/gcnprobe-clrxdisasm")

# Gzipped as Debian ships them when gzip is there (it is on every Debian system).
find_program(GCNPROBE_GZIP gzip)
set(GCNPROBE_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated/install")
set(GCNPROBE_GENERATED_MAN "${GCNPROBE_GENERATED_DIR}/gcnprobe.1")
if(GCNPROBE_GZIP)
  string(APPEND GCNPROBE_GENERATED_MAN ".gz")
endif()
set(GCNPROBE_GENERATED_COMPLETION "${GCNPROBE_GENERATED_DIR}/bash-completion/gcnprobe")
