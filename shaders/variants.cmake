# One row per compiled shader variant: gcnprobe_shader(NAME <id> SOURCE <file> DEFINES ...).
# Names are what harness/routes ask shaders::get() for.
gcnprobe_shader(NAME smoke_fill SOURCE smoke_fill.comp)
