# find_package(gcnprobe CONFIG): the gcnprobe reference model, installed by
# `cmake --install BUILD --component dev`. Targets: gcnprobe::reference (static) and, where it
# was built, gcnprobe::reference_shared. Both need C++20 and threads, nothing else.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/gcnprobeTargets.cmake")
