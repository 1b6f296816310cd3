# The Debian package (CPack's DEB generator): `cpack -G DEB` in a build folder, or
# scripts/package.sh. What it holds and why it depends on what: docs/install.md.
include(${CMAKE_CURRENT_LIST_DIR}/GcnprobeInstallDirs.cmake)

# cpack (and `make install`) package the build as it is instead of building first: build,
# then package (scripts/package.sh does both). So the package test, which runs cpack while
# other tests run the build's programs, never rebuilds them under those tests' feet.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(GCNPROBE_DEB_MAINTAINER "gcnprobe maintainers <gcnprobe-maintainers@example.org>"
    CACHE STRING "Maintainer field of the Debian package (Name <address>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gcnprobe)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${GCNPROBE_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "lane-by-lane checks of AMD GCN buffer instructions through Vulkan")
# The extended description: lines of at most 80 columns.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "gcnprobe dispatches AMD GCN (GFX6-GFX9) MUBUF/MTBUF buffer memory operations
through Vulkan, predicts every lane with a CPU reference model of the GCN
semantics, and diffs the two lane by lane, component by component, bit by bit.
It also assembles and decodes buffer instructions and V# resources, converts
elements through the GCN data and number formats, checks which instruction
RADV emits for each case on its compile-only null device, and runs probe files
on the disputed points of the documentation.")
# Installed under /usr, whatever CMAKE_INSTALL_PREFIX a plain `cmake --install` uses.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Debian ships programs stripped; the build tree keeps its symbols for debugging.
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
    GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gcnprobe_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GCNPROBE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The shared libraries the program links (libc, libstdc++, libgcc) come from dpkg-shlibdeps
# (dpkg-dev); libvulkan1 is named by hand: volk opens libvulkan.so.1 at run time, so no
# ELF dependency shows it.
find_program(GCNPROBE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GCNPROBE_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1")
else()
  message(WARNING "dpkg-shlibdeps (dpkg-dev) not found: the Debian package's Depends "
                  "names the libraries without versions")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libvulkan1, libc6, libstdc++6, libgcc-s1")
endif()
# A Vulkan driver: lavapipe runs every suite without a GPU, and RADV (its null device) is
# what `gcnprobe isa` compiles with. The validation layer only serves `run --validate`.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "vulkan-validationlayers")

# Two packages: the program (the install rules without a component, CMake's "Unspecified") as
# gcnprobe, and the reference model as a library (component dev, reference/CMakeLists.txt) as
# gcnprobe-dev: headers, static and shared library, CMake package, pkg-config file
# (docs/library.md). File names stay DEB-DEFAULT: gcnprobe_<v>-1_<arch>.deb and
# gcnprobe-dev_<v>-1_<arch>.deb.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL Unspecified dev)
set(CPACK_DEBIAN_UNSPECIFIED_PACKAGE_NAME gcnprobe)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME gcnprobe-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The library needs only the C++ runtime (dpkg-shlibdeps finds it); not Vulkan, not a driver.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkgconf")
# CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY first (the synopsis line) and each component's
# description after it as the extended description.
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "This package holds its reference model as a library: the CPU model of the GCN
MUBUF/MTBUF semantics (GFX6-GFX9, RDNA as far as documented) that gcnprobe diffs
devices against, with headers, a static and a shared library, a CMake package
(find_package(gcnprobe CONFIG)) and a pkg-config file (gcnprobe-reference), for
emulators, recompilers and simulators that use it as their oracle.")
set(CPACK_DEBIAN_UNSPECIFIED_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")

include(CPack)
