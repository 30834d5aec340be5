# The WebAssembly module: the C API linked into an ES module for browsers, workers and node.

# Every function declared in softbody.h is exported: the header is the single list.
file(READ ${CMAKE_CURRENT_SOURCE_DIR}/emscripten/softbody.h SOFTBODY_HEADER)
string(REGEX MATCHALL "[ *](sb_[a-z0-9_]+)\\(" SOFTBODY_DECLS "${SOFTBODY_HEADER}")
set(SOFTBODY_EXPORTS _malloc,_free)
foreach(decl ${SOFTBODY_DECLS})
  string(REGEX REPLACE "[ *](sb_[a-z0-9_]+)\\(" "_\\1" name "${decl}")
  string(APPEND SOFTBODY_EXPORTS ",${name}")
endforeach()

add_executable(softbody_wasm emscripten/api_state.cpp emscripten/api_world.cpp emscripten/api_body.cpp
  emscripten/api_visual.cpp emscripten/api_tetra.cpp emscripten/api_collider.cpp emscripten/api_cloth.cpp emscripten/api_gpu.cpp)
target_include_directories(softbody_wasm PRIVATE emscripten)
target_link_libraries(softbody_wasm PRIVATE softbody_core)
set_target_properties(softbody_wasm PROPERTIES OUTPUT_NAME softbody SUFFIX ".mjs")
target_link_options(softbody_wasm PRIVATE
  -O3
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createSoftbodyModule
  # web,worker only: node loads it too when handed the bytes as wasmBinary (see web/src/softbody.js).
  -sENVIRONMENT=web,worker
  # No new URL('softbody.wasm', import.meta.url) in the glue: the pages and workers always hand it a
  # compiled module (web/src/wasm_module.js), node the bytes; a bundler that saw that URL would copy
  # the .wasm again (or, in Vite's library mode, inline it as base64 into every chunk with the glue).
  -sUSE_ES6_IMPORT_META=0
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB
  -sFILESYSTEM=0
  -sEXPORTED_FUNCTIONS=${SOFTBODY_EXPORTS}
  -sEXPORTED_RUNTIME_METHODS=HEAPF32,HEAPU32,HEAP32,UTF8ToString)

# The page imports the module from web/src/wasm/ (git-ignored).
add_custom_command(TARGET softbody_wasm POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_SOURCE_DIR}/web/src/wasm
  COMMAND ${CMAKE_COMMAND} -E copy_if_different
    $<TARGET_FILE_DIR:softbody_wasm>/softbody.mjs $<TARGET_FILE_DIR:softbody_wasm>/softbody.wasm
    ${CMAKE_CURRENT_SOURCE_DIR}/web/src/wasm/)

# The export list is read from the header at configure time: re-configure when the header changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/emscripten/softbody.h)

# The opt-in multi-threaded module, softbody-mt.mjs + .wasm + .worker.js: the same C API with
# -pthread (shared memory, so pages need crossOriginIsolated) and a pool of pre-started workers
# that sb_world_set_threads uses. Every object must be compiled with -pthread, so it has its own
# copy of the core. Not part of the default target: scripts/setup.sh builds it with
# `cmake --build build-wasm --target softbody_wasm_mt`.
set(SOFTBODY_WASM_POOL 3)  # workers started at load; sb_max_threads() = this + 1
add_library(softbody_core_mt STATIC EXCLUDE_FROM_ALL ${SOFTBODY_CORE_SOURCES})
target_include_directories(softbody_core_mt PUBLIC core)
target_compile_options(softbody_core_mt PUBLIC -pthread)
add_executable(softbody_wasm_mt EXCLUDE_FROM_ALL emscripten/api_state.cpp emscripten/api_world.cpp
  emscripten/api_body.cpp emscripten/api_visual.cpp emscripten/api_tetra.cpp emscripten/api_collider.cpp emscripten/api_cloth.cpp emscripten/api_gpu.cpp)
target_include_directories(softbody_wasm_mt PRIVATE emscripten)
target_compile_definitions(softbody_wasm_mt PRIVATE SB_WASM_THREAD_POOL_SIZE=${SOFTBODY_WASM_POOL})
target_link_libraries(softbody_wasm_mt PRIVATE softbody_core_mt)
set_target_properties(softbody_wasm_mt PROPERTIES OUTPUT_NAME softbody-mt SUFFIX ".mjs")
target_link_options(softbody_wasm_mt PRIVATE
  -O3 -pthread -sPTHREAD_POOL_SIZE=${SOFTBODY_WASM_POOL}
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createSoftbodyModule
  -sENVIRONMENT=web,worker
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB
  -sFILESYSTEM=0
  -sEXPORTED_FUNCTIONS=${SOFTBODY_EXPORTS}
  -sEXPORTED_RUNTIME_METHODS=HEAPF32,HEAPU32,HEAP32,UTF8ToString)

# The pages load it from web/public/wasm-mt/ (git-ignored): Vite serves and copies that folder as
# it is, so the glue's own new URL('softbody-mt.worker.js' / '.wasm', import.meta.url) find their
# files in the dev server and in any static build (web/src/wasm_module.js).
add_custom_command(TARGET softbody_wasm_mt POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_SOURCE_DIR}/web/public/wasm-mt
  COMMAND ${CMAKE_COMMAND} -E copy_if_different
    $<TARGET_FILE_DIR:softbody_wasm_mt>/softbody-mt.mjs $<TARGET_FILE_DIR:softbody_wasm_mt>/softbody-mt.wasm
    $<TARGET_FILE_DIR:softbody_wasm_mt>/softbody-mt.worker.js
    ${CMAKE_CURRENT_SOURCE_DIR}/web/public/wasm-mt/)
