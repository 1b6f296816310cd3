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
# Storage-buffer route (harness/routes/storage.cpp): one variant per BUFFER_LOAD_<type> /
# BUFFER_STORE_<type>; rows are "name:DTYPE:SIGNED:ESIZE:WORDS:BITS8:BITS16".
foreach(row
    load_ubyte:uint8_t:0:1:1:1:0 load_sbyte:int8_t:1:1:1:1:0 load_ushort:uint16_t:0:2:1:0:1
    load_sshort:int16_t:1:2:1:0:1 load_dword:uint:0:4:1:0:0 load_dwordx2:uint:0:4:2:0:0
    load_dwordx3:uint:0:4:3:0:0 load_dwordx4:uint:0:4:4:0:0 store_byte:uint8_t:0:1:1:1:0
    store_short:uint16_t:0:2:1:0:1 store_dword:uint:0:4:1:0:0 store_dwordx2:uint:0:4:2:0:0
    store_dwordx3:uint:0:4:3:0:0 store_dwordx4:uint:0:4:4:0:0)
  string(REPLACE ":" ";" f ${row})
  list(GET f 0 name)
  list(GET f 1 dtype)
  list(GET f 2 signed)
  list(GET f 3 esize)
  list(GET f 4 words)
  list(GET f 5 b8)
  list(GET f 6 b16)
  string(FIND ${name} "store_" st)
  if(st EQUAL 0)
    set(store 1)
  else()
    set(store 0)
  endif()
  gcnprobe_shader(NAME storage_${name} SOURCE storage_access.comp
    DEFINES STORE=${store} DTYPE=${dtype} SIGNED=${signed} ESIZE=${esize}u WORDS=${words}u
            BITS8=${b8} BITS16=${b16})
endforeach()
# Atomic route (harness/routes/atomic.cpp): rows are "op:GLSL function suffix:u|i"; SSBO
# 32-bit, SSBO 64-bit (_x2) and R32 storage texel buffer per op. sub = add of the negation.
foreach(row swap:Exchange:u cmpswap:CompSwap:u add:Add:u sub:Add:u smin:Min:i umin:Min:u
    smax:Max:i umax:Max:u and:And:u or:Or:u xor:Xor:u)
  string(REPLACE ":" ";" f ${row})
  list(GET f 0 op)
  list(GET f 1 fn)
  list(GET f 2 sign)
  set(cmp 0)
  set(neg 0)
  if(op STREQUAL "cmpswap")
    set(cmp 1)
  endif()
  if(op STREQUAL "sub")
    set(neg 1)
  endif()
  if(sign STREQUAL "i")
    set(t32 int)
    set(t64 int64_t)
    set(tex iimageBuffer)
    set(fmt r32i)
  else()
    set(t32 uint)
    set(t64 uint64_t)
    set(tex uimageBuffer)
    set(fmt r32ui)
  endif()
  gcnprobe_shader(NAME atomic_ssbo_${op} SOURCE atomic_ssbo.comp
    DEFINES T=${t32} WIDE=0 FN=atomic${fn} CMPSWAP=${cmp} NEG=${neg})
  gcnprobe_shader(NAME atomic_ssbo_${op}_x2 SOURCE atomic_ssbo.comp
    DEFINES T=${t64} WIDE=1 FN=atomic${fn} CMPSWAP=${cmp} NEG=${neg})
  gcnprobe_shader(NAME atomic_texel_${op} SOURCE atomic_texel.comp
    DEFINES T=${t32} TEX=${tex} FMT=${fmt} FN=imageAtomic${fn} CMPSWAP=${cmp} NEG=${neg})
endforeach()
# Vertex route (harness/routes/vertex.cpp): the attribute's numeric type (f = vec4 for
# UNORM/SNORM/USCALED/SSCALED/FLOAT, i = ivec4 for SINT, u = uvec4 for UINT).
gcnprobe_shader(NAME vertex_fetch_f SOURCE vertex_fetch.vert DEFINES VEC4=vec4 IS_FLOAT=1)
gcnprobe_shader(NAME vertex_fetch_i SOURCE vertex_fetch.vert DEFINES VEC4=ivec4 IS_FLOAT=0)
gcnprobe_shader(NAME vertex_fetch_u SOURCE vertex_fetch.vert DEFINES VEC4=uvec4 IS_FLOAT=0)
