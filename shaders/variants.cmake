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
      DEFINES STORAGE=0 TEX=${pre}textureBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} COMPS=${n})
    gcnprobe_shader(NAME texel_load_storage_${kind}${n} SOURCE texel_load.comp
      DEFINES STORAGE=1 TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} COMPS=${n})
  endforeach()
  gcnprobe_shader(NAME texel_store_${kind} SOURCE texel_store.comp
    DEFINES TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} SCALAR=${scalar} STORE_COMPS=4)
  # Stores of 1..3 components: the components past STORE_COMPS are constant zero, which ACO
  # drops from the store (buffer_store_format_x/xy/xyz), as for formats with fewer channels.
  foreach(n 1 2 3)
    gcnprobe_shader(NAME texel_store_${kind}${n} SOURCE texel_store.comp
      DEFINES TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf} SCALAR=${scalar}
              STORE_COMPS=${n})
  endforeach()
endforeach()
# Texel route, storage-texel loads on devices without shaderStorageImageReadWithoutFormat
# (lavapipe 22.3): imageLoad on an imageBuffer declared with its format layout qualifier.
# Rows are "VkFormat:GLSL qualifier": the Vulkan spec's table "Compatibility Between SPIR-V
# Image Formats and Vulkan Formats" (appendices/spirvenv, [[spirvenv-image-formats]]), with
# each SPIR-V Image Format spelled as its GLSL format layout qualifier (GLSL 4.60, 4.4.6.2
# "Format Layout Qualifiers"). R64ui/R64i (Int64ImageEXT) have their own rows below. This list is the only VkFormat -> qualifier table: texel.cpp
# names the variant after the VkFormat and reads "no variant" as "no SPIR-V image format".
# The sampled type follows the qualifier (GLSL: *ui -> uimageBuffer, *i -> iimageBuffer,
# every other qualifier -> imageBuffer).
foreach(row
    R32G32B32A32_SFLOAT:rgba32f R16G16B16A16_SFLOAT:rgba16f R32_SFLOAT:r32f
    R8G8B8A8_UNORM:rgba8 R8G8B8A8_SNORM:rgba8_snorm R32G32_SFLOAT:rg32f R16G16_SFLOAT:rg16f
    B10G11R11_UFLOAT_PACK32:r11f_g11f_b10f R16_SFLOAT:r16f R16G16B16A16_UNORM:rgba16
    A2B10G10R10_UNORM_PACK32:rgb10_a2 R16G16_UNORM:rg16 R8G8_UNORM:rg8 R16_UNORM:r16
    R8_UNORM:r8 R16G16B16A16_SNORM:rgba16_snorm R16G16_SNORM:rg16_snorm R8G8_SNORM:rg8_snorm
    R16_SNORM:r16_snorm R8_SNORM:r8_snorm R32G32B32A32_SINT:rgba32i R16G16B16A16_SINT:rgba16i
    R8G8B8A8_SINT:rgba8i R32_SINT:r32i R32G32_SINT:rg32i R16G16_SINT:rg16i R8G8_SINT:rg8i
    R16_SINT:r16i R8_SINT:r8i R32G32B32A32_UINT:rgba32ui R16G16B16A16_UINT:rgba16ui
    R8G8B8A8_UINT:rgba8ui R32_UINT:r32ui A2B10G10R10_UINT_PACK32:rgb10_a2ui R32G32_UINT:rg32ui
    R16G16_UINT:rg16ui R8G8_UINT:rg8ui R16_UINT:r16ui R8_UINT:r8ui)
  string(REPLACE ":" ";" f ${row})
  list(GET f 0 vkformat)
  list(GET f 1 qualifier)
  string(TOLOWER ${vkformat} lname)
  if(qualifier MATCHES "ui$")
    set(pre u)
    set(isf 0)
  elseif(qualifier MATCHES "i$")
    set(pre i)
    set(isf 0)
  else()
    set(pre "")
    set(isf 1)
  endif()
  foreach(n 1 2 3 4)
    gcnprobe_shader(NAME texel_load_formatted_${lname}_${n} SOURCE texel_load.comp
      DEFINES STORAGE=1 FMT=${qualifier} TEX=${pre}imageBuffer VEC4=${pre}vec4 IS_FLOAT=${isf}
              COMPS=${n})
  endforeach()
endforeach()
# R64_UINT / R64_SINT (the Vulkan table's R64ui / R64i, capability Int64ImageEXT): one
# variant each, reading the 64-bit component as two dwords (texel_load.comp WIDE).
gcnprobe_shader(NAME texel_load_formatted_r64_uint_2 SOURCE texel_load.comp
  DEFINES STORAGE=1 FMT=r64ui TEX=u64imageBuffer VEC4=u64vec4 IS_FLOAT=0 COMPS=2 WIDE=1)
gcnprobe_shader(NAME texel_load_formatted_r64_sint_2 SOURCE texel_load.comp
  DEFINES STORAGE=1 FMT=r64i TEX=i64imageBuffer VEC4=i64vec4 IS_FLOAT=0 COMPS=2 WIDE=1)
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
# The SOFFSET form (raw V# route): dword loads whose byte address is a push constant, the same
# for every lane, so ACO emits it as SOFFSET (an SGPR) with no VADDR.
foreach(row load_dword:1 load_dwordx2:2 load_dwordx4:4)
  string(REPLACE ":" ";" f ${row})
  list(GET f 0 name)
  list(GET f 1 words)
  gcnprobe_shader(NAME storage_soffset_${name} SOURCE storage_access.comp
    DEFINES STORE=0 DTYPE=uint SIGNED=0 ESIZE=4u WORDS=${words}u BITS8=0 BITS16=0 SOFFSET_PC=1)
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
# Binary route templates (harness/isa/binary_patch.h): the widest load and store, whose buffer
# instruction a patched MUBUF/MTBUF instruction replaces.
gcnprobe_shader(NAME binary_template_load SOURCE binary_template.comp DEFINES STORE=0)
gcnprobe_shader(NAME binary_template_store SOURCE binary_template.comp DEFINES STORE=1)
gcnprobe_shader(NAME binary_template_lds SOURCE binary_template_lds.comp)
# The own-program route's template (harness/control/): only its layout, argument registers,
# register allocation and code room are used; gcnprobe's program replaces its code.
gcnprobe_shader(NAME control_template SOURCE control_template.comp)
# Sweeps (harness/explore/sweep.h): texelFetch of every element of a uniform texel buffer, per
# sampled type.
gcnprobe_shader(NAME sweep_texel_f SOURCE sweep_texel.comp DEFINES TEX=samplerBuffer IS_FLOAT=1 IS_INT=0)
gcnprobe_shader(NAME sweep_texel_i SOURCE sweep_texel.comp DEFINES TEX=isamplerBuffer IS_FLOAT=0 IS_INT=1)
gcnprobe_shader(NAME sweep_texel_u SOURCE sweep_texel.comp DEFINES TEX=usamplerBuffer IS_FLOAT=0 IS_INT=0)
# `gcnprobe export` of vertex cases: the fragment stage of the Amber graphics pipeline.
gcnprobe_shader(NAME repro_fragment SOURCE repro_fragment.frag)
