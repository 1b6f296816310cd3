# One row per compiled shader variant: gcnprobe_shader(NAME <id> SOURCE <file> DEFINES ...).
# Names are what harness/routes ask shaders::get() for.
gcnprobe_shader(NAME smoke_fill SOURCE smoke_fill.comp)
# Texel route (harness/routes/texel.cpp): loads per binding (uniform = texelFetch, storage =
# imageLoad) x sampled type (f/i/u) x components used (1..4); stores per sampled type.
foreach(kind f i u)
  if(kind STREQUAL "f")
    set(pre "")
    set(isf 1)
    set(scalar float)
  else()
    set(pre ${kind})
    set(isf 0)
    if(kind STREQUAL "i")
      set(scalar int)
    else()
      set(scalar uint)
    endif()
  endif()
  foreach(n 1 2 3 4)
    gcnprobe_shader(NAME texel_load_uniform_${kind}${n} SOURCE texel_load.comp
      DEFINES STORAGE=0 TEX=${pre}samplerBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} COMPS=${n})
    gcnprobe_shader(NAME texel_load_storage_${kind}${n} SOURCE texel_load.comp
      DEFINES STORAGE=1 TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} COMPS=${n})
  endforeach()
  gcnprobe_shader(NAME texel_store_${kind} SOURCE texel_store.comp
    DEFINES TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} SCALAR=${scalar})
endforeach()
