# The layers of gcnprobe, once, as data: each row is
#   <layer>|<source path prefixes, comma-separated>|<layers it may use directly, comma-separated>
#   |<the C++ namespace its files declare>
# A layer may use the layers it names and, through them, everything below. The build links each
# layer's library only to the libraries of the layers it names (gcnprobe_layer_link below), and
# the `layers` test (cmake/CheckLayers.cmake) fails when a file includes a header of a layer its
# own layer may not use, so an upward include is caught even where static linking would hide it,
# and when a file declares a gcn/gcnprobe namespace other than its layer's (or one nested in it
# that is no other layer's). The model (reference, and probe files on top of it) is `gcn`, the
# harness and the command line `gcnprobe::<layer>`.
set(GCNPROBE_LAYERS
    "reference|reference/||gcn"
    "probe|probe/|reference|gcn::probe"
    "shaders|shaders/||gcnprobe::shaders"
    "report|report/||gcnprobe::report"
    "results|results/|reference,report|gcnprobe::results"
    "vulkan|harness/vulkan/,harness/formats.,harness/gcn_detect.|reference|gcnprobe::vk"
    "routes|harness/routes/,harness/vsharp_selfcheck.|vulkan,shaders|gcnprobe::routes"
    "isa|harness/isa/|routes|gcnprobe::isa"
    "control|harness/control/|isa|gcnprobe::control"
    "judge|harness/judge/|routes,results|gcnprobe::judge"
    "cases|harness/cases/|judge,isa,control,probe|gcnprobe::cases"
    "run|harness/run/|cases|gcnprobe::run"
    "explore|harness/explore/|cases|gcnprobe::explore"
    "repro|harness/repro/|cases|gcnprobe::repro"
    "app|app/|run,explore,repro|gcnprobe::app")

# Headers from outside the project that belong to a layer: <layer>|<include prefixes>. Only
# that layer and the layers that may use it include them (cmake/CheckLayers.cmake), so the
# layers below vulkan, results among them, cannot reach Vulkan even through a system header.
set(GCNPROBE_LAYER_EXTERNAL_HEADERS
    "vulkan|volk.h,vulkan/")

# One folder, one job: a layer folder holds at most this many .cpp files (cmake/CheckLayers.cmake),
# except the folders of these layers: app has one file per command, reference is one model.
set(GCNPROBE_LAYER_MAX_SOURCES 12)
set(GCNPROBE_LAYER_UNBOUNDED app reference)

# The library that implements each layer.
set(GCNPROBE_LAYER_TARGET_reference gcnref)
set(GCNPROBE_LAYER_TARGET_probe gcnprobefile)
set(GCNPROBE_LAYER_TARGET_shaders gcnshaders)
set(GCNPROBE_LAYER_TARGET_report gcnreportpage)
set(GCNPROBE_LAYER_TARGET_results gcnresults)
set(GCNPROBE_LAYER_TARGET_vulkan gcnvk)
set(GCNPROBE_LAYER_TARGET_routes gcnroutes)
set(GCNPROBE_LAYER_TARGET_isa gcnisa)
set(GCNPROBE_LAYER_TARGET_control gcncontrol)
set(GCNPROBE_LAYER_TARGET_judge gcnjudge)
set(GCNPROBE_LAYER_TARGET_cases gcncases)
set(GCNPROBE_LAYER_TARGET_run gcnrun)
set(GCNPROBE_LAYER_TARGET_explore gcnexplore)
set(GCNPROBE_LAYER_TARGET_repro gcnrepro)
set(GCNPROBE_LAYER_TARGET_app gcnapp)

# gcnprobe_layer_row(<row> <name> <prefixes> <uses>): the fields of one row of GCNPROBE_LAYERS
# (or of GCNPROBE_LAYER_EXTERNAL_HEADERS, which has no uses) into the three variables, as lists.
function(gcnprobe_layer_row row name_var prefixes_var uses_var)
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 name)
  list(GET fields 1 prefixes)
  string(REPLACE "," ";" prefixes "${prefixes}")
  set(uses "")
  list(LENGTH fields n)
  if(n GREATER 2)
    list(GET fields 2 uses)
    string(REPLACE "," ";" uses "${uses}")
  endif()
  set(${name_var} "${name}" PARENT_SCOPE)
  set(${prefixes_var} "${prefixes}" PARENT_SCOPE)
  set(${uses_var} "${uses}" PARENT_SCOPE)
endfunction()

# gcnprobe_layer_namespace(<row> <var>): the namespace field of one row of GCNPROBE_LAYERS.
function(gcnprobe_layer_namespace row ns_var)
  string(REPLACE "|" ";" fields "${row}")
  list(LENGTH fields n)
  set(ns "")
  if(n GREATER 3)
    list(GET fields 3 ns)
  endif()
  set(${ns_var} "${ns}" PARENT_SCOPE)
endfunction()

# gcnprobe_layer_link(<layer>): links the layer's library PUBLIC to the libraries of the layers
# the table lets it use, and to nothing else of gcnprobe's.
function(gcnprobe_layer_link layer)
  foreach(row IN LISTS GCNPROBE_LAYERS)
    gcnprobe_layer_row("${row}" name prefixes uses)
    if(name STREQUAL layer)
      foreach(u IN LISTS uses)
        target_link_libraries(${GCNPROBE_LAYER_TARGET_${layer}} PUBLIC ${GCNPROBE_LAYER_TARGET_${u}})
      endforeach()
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "gcnprobe_layer_link: no layer '${layer}' in GCNPROBE_LAYERS")
endfunction()
