# The sandbox sources both builds share: the desktop window (app/sandbox/CMakeLists.txt) and the web page
# (app/web/CMakeLists.txt). What differs stays out of this list: the platform (platform.cpp / platform_web.cpp), the
# main loop (sandbox_main.cpp / web_main.cpp), the window recorder's format (desktop/recording_format.cpp: MP4 /
# app/web/recording_format_web.cpp: GIF) and `shot`, `record`, render_setup.cpp (desktop only). The recorder itself,
# window_recorder.cpp, is shared: it needs the video writer (common/video_writer.cpp and the build's encoder source,
# common/video_encoder.h). Paths are relative to this folder.
set(LAGRANGE_SANDBOX_SHARED_SOURCES
  camera.cpp
  gl_util.cpp
  measure_tools.cpp
  picking.cpp
  platform_sdl.cpp  # the SDL side of the Platform both platforms share (platform.cpp / platform_web.cpp: the rest)
  plots.cpp
  renderer.cpp
  sandbox_app.cpp
  sandbox_input.cpp
  sandbox_edit.cpp
  editor.cpp
  ui_editor.cpp
  scene_draw.cpp
  screenshot.cpp
  screenshot_folder.cpp
  theme.cpp
  ui_diagnostics.cpp
  ui_measure.cpp
  ui_overlays.cpp
  ui_panels.cpp
  ui_lanes.cpp
  ui_layers.cpp
  ui_timeline.cpp
  timeline.cpp
  ui_display.cpp
  user_config.cpp
  window_options.cpp  # the window's command line: the desktop's argv and the page's URL settings
  window_recorder.cpp
)
# The embedded shaders: sets SHADER_CPP, a generated .cpp for the sources list (GLSL_ES: rewritten for WebGL2).
function(lagrange_embed_shaders out_var glsl_es)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../.. ABSOLUTE)
  file(GLOB shader_files CONFIGURE_DEPENDS ${root}/shaders/*.vert ${root}/shaders/*.frag)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/shader_sources.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${shader_files}" -DGLSL_ES=${glsl_es}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_shaders.cmake
    DEPENDS ${shader_files} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_shaders.cmake
    COMMENT "Embedding GLSL shaders"
    VERBATIM)
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
