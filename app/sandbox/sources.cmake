# The window's sources both builds share: the desktop window (app/sandbox/CMakeLists.txt) and the web page
# (app/web/CMakeLists.txt). What differs stays out of this list: the platform (window/platform.cpp /
# web/platform_web.cpp), the main loop (sandbox/sandbox_main.cpp / web/web_main.cpp) and the window recorder's format
# (capture/desktop/recording_format.cpp: MP4 / web/recording_format_web.cpp: GIF). The recorder itself,
# capture/window_recorder.cpp, is shared: it needs the video writer (capture/video_writer.cpp and the build's encoder
# source, capture/video_encoder.h). `shot` and `record` (cli/) are desktop only and not here. Paths are relative to
# app/, one group per room, floor by floor (docs/architecture.md, "The app").
set(LAGRANGE_SANDBOX_SHARED_SOURCES
  # capture/ (floor 1): PNGs, the screenshot folder, the window's recorder
  capture/screenshot.cpp
  capture/screenshot_folder.cpp
  capture/window_recorder.cpp
  # window/ (floor 2): the SDL side of the Platform both platforms share (window/platform.cpp /
  # web/platform_web.cpp: the rest), GL, the renderer, the camera, the themes
  window/camera.cpp
  window/gl_util.cpp
  window/platform_sdl.cpp
  window/renderer.cpp
  window/theme.cpp
  # tools/ (floor 2): the measuring tools and the timeline, no window
  tools/measure_tools.cpp
  tools/measurement_table.cpp
  tools/force_scale.cpp
  tools/timeline.cpp
  tools/convergence_job.cpp  # the Convergence panel's study, on a thread of its own
  # state/ (floor 3): plain data
  state/editor_state.cpp
  state/history.cpp
  # view/ (floor 4): the scene as drawn, and what lies under the cursor
  view/picking.cpp
  view/scene_draw.cpp
  view/step_view.cpp
  # ui/ (floor 5): the panels
  ui/control_panel.cpp
  ui/convergence_panel.cpp
  ui/convergence_plot.cpp
  ui/diagnostics_panel.cpp
  ui/display_controls.cpp
  ui/lanes_panel.cpp
  ui/matrix_panel.cpp
  ui/layout_check.cpp
  ui/measure_panel.cpp
  ui/measure_table.cpp
  ui/measure_scale.cpp
  ui/overlay_layout.cpp
  ui/overlays.cpp
  ui/plots.cpp
  ui/scene_overlays.cpp
  ui/screen_layout.cpp
  ui/step_view_panel.cpp
  ui/text_box.cpp
  ui/timeline_bar.cpp
  ui/ui_layers.cpp
  ui/user_config.cpp
  # sandbox/ (floor 6): the Sandbox
  sandbox/recording.cpp
  sandbox/sandbox_app.cpp
  sandbox/sandbox_input.cpp
  sandbox/window_options.cpp  # the window's command line: the desktop's argv and the page's URL settings
  # edit/ (floor 7): Edit mode's mouse, keys and panel
  edit/edit_mode.cpp
  edit/editor_panel.cpp
)
# The embedded shaders: sets SHADER_CPP, a generated .cpp for the sources list (GLSL_ES: rewritten for WebGL2).
function(lagrange_embed_shaders out_var glsl_es)
  get_filename_component(root ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../.. ABSOLUTE)
  file(GLOB shader_files CONFIGURE_DEPENDS ${root}/shaders/*.vert ${root}/shaders/*.frag)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/shader_sources.cpp)
  set(script ${root}/app/window/embed_shaders.cmake)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DINPUTS=${shader_files}" -DGLSL_ES=${glsl_es} -P ${script}
    DEPENDS ${shader_files} ${script}
    COMMENT "Embedding GLSL shaders"
    VERBATIM)
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
