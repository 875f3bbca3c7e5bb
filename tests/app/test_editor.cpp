// The scene editor (Edit mode, key E) driven through real SDL events in the offscreen window: a double pendulum built
// with the mouse from an empty scene, every step undone and redone, saved, opened again and played against a world
// built in code; box-select and move; typed values against atan2; invalid edits with the loader's messages; the
// generators; every widget of the Editor panel clicked; the history through a play; the inspector's numbers shown whole
// and without round-off residue.
#include <imgui.h>

#include <fstream>
#include <numbers>

#include "app_fixture.h"
#include "cli/commands.h"
#include "lagrange/scene_edit.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

// Text typed into the focused field, as SDL delivers it.
void push_text(const std::string& text) {
  SDL_Event event{};
  event.type = SDL_TEXTINPUT;
  std::snprintf(event.text.text, sizeof event.text.text, "%s", text.c_str());
  REQUIRE(SDL_PushEvent(&event) == 1);
}

// A left-button drag in the scene: press, a few moves, release, a frame after each.
void drag(Sandbox& sandbox, glm::dvec2 from, glm::dvec2 to) {
  push_mouse_motion(from, from, false);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, from);
  run_frames(sandbox, 1, 0.0);
  glm::dvec2 previous = from;
  for (int k = 1; k <= 4; ++k) {
    const glm::dvec2 at = from + (to - from) * (k / 4.0);
    push_mouse_motion(at, previous, true);
    run_frames(sandbox, 1, 0.0);
    previous = at;
  }
  push_mouse_button(SDL_MOUSEBUTTONUP, to);
  run_frames(sandbox, 1, 0.0);
}

// A key pressed a frame after the last click, as a hand would (ImGui knows a button let go one frame later).
void key(Sandbox& sandbox, SDL_Keycode code, Uint16 modifiers = KMOD_NONE) {
  run_frames(sandbox, 1, 0.0);
  push_key(code, modifiers);
  run_frames(sandbox, 1, 0.0);
}

// Clicks a field of the panel and types `text` over its value (number fields select all on focus), then Enter.
void type_into(Sandbox& sandbox, const std::string& field, const std::string& text) {
  click_widget(sandbox, field);
  push_text(text);
  run_frames(sandbox, 1, 0.0);
  key(sandbox, SDLK_RETURN);
  run_frames(sandbox, 1, 0.0);
}

Sandbox& editing_empty_scene(Sandbox& sandbox) {
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_e);
  REQUIRE(sandbox.state().editor.active);
  click_widget(sandbox, "new 2d button");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(sandbox.state().editor.draft.particles.empty());
  return sandbox;
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a double pendulum built with the mouse: every step undone and redone, saved, reopened, played exactly") {
  Sandbox sandbox(test_options(1000, 640));
  const SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_e);
  REQUIRE(e.active);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.widget_rects.count("edit banner") == 1);
  CHECK(state.widget_rects.count("editor panel") == 1);
  const std::string before = write_scene(e.draft);  // the shipped scene, as it was when E was pressed

  click_widget(sandbox, "new 2d button");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(e.draft.particles.empty());
  REQUIRE(e.snap_step > 0.0);
  REQUIRE(std::fmod(1.0, e.snap_step) < 1e-12);  // 1 m is on the grid, so the points below snap to themselves
  key(sandbox, SDLK_3);  // the Rod tool
  REQUIRE(e.tool == EditTool::Rod);
  const Vec3 pivot(0.0, 0.0, 0.0), inner(1.0, 0.0, 0.0), outer(2.0, 0.0, 0.0);
  drag(sandbox, screen_of(sandbox, pivot), screen_of(sandbox, inner));  // a rod with a particle on each end
  REQUIRE(e.draft.particles.size() == 2);
  drag(sandbox, screen_of(sandbox, inner), screen_of(sandbox, outer));  // from the inner bob on
  REQUIRE(e.draft.particles.size() == 3);
  REQUIRE(e.draft.constraints.size() == 2);
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, pivot));
  REQUIRE(e.selected == std::vector<int>{0});
  click_widget(sandbox, "edit fixed");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(e.draft.particles[0].fixed);
  CHECK(e.problem == "");
  // Snapped to the grid: exactly the points aimed at.
  CHECK(e.draft.particles[0].position == pivot);
  CHECK(e.draft.particles[1].position == inner);
  CHECK(e.draft.particles[2].position == outer);
  CHECK(e.draft.constraints[0].particles == std::vector<int>{0, 1});
  CHECK(e.draft.constraints[1].particles == std::vector<int>{1, 2});
  const std::string built = write_scene(e.draft);

  // Undo every step (fix, rod, rod, new), then redo them all.
  REQUIRE(e.undo.size() == 4);
  const std::size_t particles_after_undo[] = {3, 2, 0, 3};
  for (std::size_t k = 0; k < 4; ++k) {
    key(sandbox, SDLK_z, KMOD_LCTRL);
    CHECK(e.draft.particles.size() == particles_after_undo[k]);
  }
  CHECK(write_scene(e.draft) == before);
  for (int k = 0; k < 4; ++k) key(sandbox, SDLK_z, KMOD_LCTRL | KMOD_LSHIFT);
  CHECK(write_scene(e.draft) == built);
  CHECK(e.redo.empty());

  // Save as, and the file loads back to the same scene.
  const auto dir = temp_dir("editor-double");
  const std::string file = (dir / "my_double.json").string();
  std::snprintf(sandbox.state().editor.save_field.data(), e.save_field.size(), "%s", file.c_str());
  click_widget(sandbox, "edit save as button");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(std::filesystem::exists(file));
  CHECK(!e.modified);
  const Scene reread = load_scene_file(file);
  CHECK(write_scene(reread) == built);
  CHECK(read_text(file) == built);

  // Play: the world starts from the edited state and steps exactly as one built in code.
  key(sandbox, SDLK_e);
  REQUIRE(!e.active);
  CHECK(!state.paused);
  World direct(2, reread.settings);
  direct.add_particle({.position = pivot, .fixed = true});
  direct.add_particle({.position = inner, .mass = 1.0});
  direct.add_particle({.position = outer, .mass = 1.0});
  direct.add_distance(0, 1, 1.0);
  direct.add_distance(1, 2, 1.0);
  sandbox.state().paused = true;
  sandbox.advance_steps(200);
  for (int i = 0; i < 200; ++i) direct.step();
  for (int p = 0; p < 3; ++p) {
    CHECK(sandbox.world().state().position[p] == direct.state().position[p]);
    CHECK(sandbox.world().state().velocity[p] == direct.state().velocity[p]);
  }
  // `lagrange-lab run` on the saved file: the last CSV row is the world built in code, bit for bit (the CSV writes
  // the shortest text that reads back to the same double).
  const std::string csv = (dir / "run.csv").string();
  REQUIRE(call_main(cli::run_main, {file, "--steps", "200", "--csv", csv}) == 0);
  const std::string rows = read_text(csv);
  const std::string last = rows.substr(rows.rfind('\n', rows.size() - 2) + 1);
  std::vector<double> values;
  for (std::size_t at = 0; at < last.size();) {
    const std::size_t comma = std::min(last.find(',', at), last.size());
    values.push_back(std::strtod(last.substr(at, comma - at).c_str(), nullptr));
    at = comma + 1;
  }
  REQUIRE(values.size() == 6 + 3 * 6);
  CHECK(values[0] == 200.0);
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 3; ++k) {
      CHECK(values[6 + 6 * p + k] == direct.state().position[p][k]);
      CHECK(values[9 + 6 * p + k] == direct.state().velocity[p][k]);
    }
  // Reopened from the file in the sandbox: the same start.
  REQUIRE(sandbox.load_scene(file) == "");
  CHECK(sandbox.world().state().position[2] == outer);
}

TEST_CASE("box-select two of three particles and move them one grid step as one undo step") {
  Sandbox sandbox(test_options(1000, 640));
  editing_empty_scene(sandbox);
  const EditorState& e = sandbox.state().editor;
  key(sandbox, SDLK_2);  // Particle tool
  for (double x : {0.0, 1.0, 2.0}) click_at(sandbox, screen_of(sandbox, {x, 0.0, 0.0}));
  REQUIRE(e.draft.particles.size() == 3);
  key(sandbox, SDLK_1);
  drag(sandbox, screen_of(sandbox, {-0.5, 0.5, 0.0}), screen_of(sandbox, {1.5, -0.5, 0.0}));
  REQUIRE(e.selected.size() == 2);
  const std::size_t steps = e.undo.size();
  drag(sandbox, screen_of(sandbox, {1.0, 0.0, 0.0}), screen_of(sandbox, {1.0, 1.0, 0.0}));
  CHECK(e.draft.particles[0].position == Vec3(0.0, 1.0, 0.0));
  CHECK(e.draft.particles[1].position == Vec3(1.0, 1.0, 0.0));
  CHECK(e.draft.particles[2].position == Vec3(2.0, 0.0, 0.0));
  CHECK(e.undo.size() == steps + 1);
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.draft.particles[0].position == Vec3(0.0, 0.0, 0.0));
  // Delete removes the particle and its rods.
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, {1.0, 0.0, 0.0}), screen_of(sandbox, {2.0, 0.0, 0.0}));
  REQUIRE(e.draft.constraints.size() == 1);
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, {2.0, 0.0, 0.0}));
  key(sandbox, SDLK_DELETE);
  CHECK(e.draft.particles.size() == 2);
  CHECK(e.draft.constraints.empty());
}

TEST_CASE("typed initial conditions: a rod's angle and angular velocity, a particle's velocity and mass") {
  Sandbox sandbox(test_options(1100, 700));
  editing_empty_scene(sandbox);
  const EditorState& e = sandbox.state().editor;
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}), screen_of(sandbox, {0.0, -1.0, 0.0}));
  REQUIRE(e.draft.constraints.size() == 1);
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_widget(sandbox, "edit pinned");
  click_at(sandbox, screen_of(sandbox, {0.0, -0.5, 0.0}));  // the rod's middle: selects it
  REQUIRE(e.constraint == 0);
  type_into(sandbox, "edit rod angle", "30");
  const Vec3 bob = e.draft.particles[1].position;
  CHECK(std::atan2(bob.x, -bob.y) == doctest::Approx(std::numbers::pi / 6.0).epsilon(1e-12));
  CHECK(glm::length(bob) == doctest::Approx(1.0).epsilon(1e-12));
  type_into(sandbox, "edit rod angular velocity", "-2");
  // v = ω × r for a rod from a fixed point, in closed form: ω (−r_y, r_x).
  CHECK(e.draft.particles[1].velocity.x == doctest::Approx(-2.0 * -bob.y));
  CHECK(e.draft.particles[1].velocity.y == doctest::Approx(-2.0 * bob.x));
  click_at(sandbox, screen_of(sandbox, bob));
  REQUIRE(e.selected == std::vector<int>{1});
  type_into(sandbox, "edit mass", "2.5");
  CHECK(e.draft.particles[1].mass == 2.5);
  // Each typed field is one undo step.
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.draft.particles[1].mass == 1.0);
  CHECK(e.draft.particles[1].velocity.x != 0.0);
}

TEST_CASE("the edit history survives a play: E, New 2D, build, E, E keeps the steps and Ctrl+Z undoes the last edit") {
  Sandbox sandbox(test_options(1000, 640));
  const SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_e);
  REQUIRE(e.active);
  sandbox.state().commands.push_back([] {  // the New 2D button's command
    Command command;
    command.kind = Command::Kind::EditNew;
    command.index = 2;
    return command;
  }());
  run_frames(sandbox, 1, 0.0);
  REQUIRE(e.draft.particles.empty());
  // A pendulum hanging from a fixed pivot, as the user builds it: a rod (two particles), then fix the top.
  const Vec3 pivot(0.0, 0.0, 0.0), bob(1.0, 0.0, 0.0);
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, pivot), screen_of(sandbox, bob));
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, pivot));
  click_widget(sandbox, "edit fixed");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(e.draft.particles.size() == 2);
  REQUIRE(e.draft.particles[0].fixed);
  REQUIRE(e.undo.size() == 3);  // new scene, add rod, fix
  const std::string built = write_scene(e.draft);

  key(sandbox, SDLK_e);  // play
  REQUIRE(!e.active);
  run_frames(sandbox, 30, 1.0 / 60.0);  // it swings: the bob leaves (1, 0)
  REQUIRE(sandbox.world().state().position[1] != bob);
  key(sandbox, SDLK_e);  // edit again
  REQUIRE(e.active);
  CHECK(e.undo.size() == 3);
  CHECK((!e.undo.empty() && e.undo.back().label == "fix"));
  // The scene as it was built comes back (the start of its motion, not the swing's pose).
  CHECK(e.draft.particles[1].position == bob);
  CHECK(e.draft.particles[1].velocity == Vec3(0.0));
  key(sandbox, SDLK_z, KMOD_LCTRL);  // undoes the last edit: the pivot is free again
  CHECK(e.draft.particles.size() == 2);
  CHECK(!e.draft.particles[0].fixed);
  CHECK(e.undo.size() == 2);
  key(sandbox, SDLK_z, KMOD_LCTRL | KMOD_LSHIFT);
  CHECK(write_scene(e.draft) == built);

  // Play, then open another scene: E edits that scene with a history of its own, empty.
  key(sandbox, SDLK_e);
  REQUIRE(!e.active);
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_e);
  REQUIRE(e.active);
  CHECK(e.undo.empty());
  CHECK(e.redo.empty());
  CHECK(e.draft.particles.size() == sandbox.world().particle_count());
  CHECK(e.draft.particles.size() == 3);  // the shipped double pendulum: pivot and two bobs
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.draft.particles.size() == 3);  // nothing to undo
}

// What a number field shows, against texts written by hand: residues of the scale as 0, digits that fit, and never
// a number cut short.
TEST_CASE("an inspector number shows a round-off residue as 0 and fits its box with fewer digits, never cut") {
  const auto chars = [](const std::string& text) { return static_cast<float>(text.size()); };  // one unit a char
  const auto texts = [&](std::vector<double> values, double scale, float width, int digits = 6) {
    return field_text(values, scale, width, chars, digits).texts;
  };
  using Texts = std::vector<std::string>;
  // The bob of a 1 m rod typed to 90°: y = -1 + (1 - 2^-53) rounds to -2^-53 = -1.11022e-16.
  CHECK(texts({1.0, -std::ldexp(1.0, -53)}, 1.0, 40.0f) == Texts{"1", "0"});
  CHECK(texts({-std::ldexp(1.0, -53), 0.0}, 1.0, 40.0f) == Texts{"0", "0"});  // the scene's size, not the row's
  CHECK(texts({-0.0}, 0.0, 40.0f) == Texts{"0"});
  CHECK(texts({1000.0, 3e-14}, 1.0, 40.0f) == Texts{"1000", "0"});  // the row's largest value counts too
  CHECK(texts({2.5e-13}, 1.0, 40.0f) == Texts{"0"});
  // Small values that are no residue stay.
  CHECK(texts({2.5e-11}, 1.0, 40.0f) == Texts{"2.5e-11"});
  CHECK(texts({1e-7, 0.5}, 1.0, 40.0f) == Texts{"1e-07", "0.5"});
  CHECK(texts({-std::ldexp(1.0, -53)}, 0.0, 40.0f) == Texts{"-1.11022e-16"});  // alone, it is its own size
  // Fewer digits to fit the box, one precision for the row.
  CHECK(texts({-2.0 / 3.0}, 1.0, 40.0f) == Texts{"-0.666667"});
  CHECK(texts({-2.0 / 3.0}, 1.0, 6.0f) == Texts{"-0.667"});
  CHECK(texts({1234567.0}, 0.0, 20.0f) == Texts{"1.23457e+06"});
  CHECK(texts({1234567.0}, 0.0, 7.0f) == Texts{"1.2e+06"});
  CHECK(texts({1234567.0, 0.5}, 0.0, 7.0f) == Texts{"1.2e+06", "0.5"});
  CHECK(texts({0.123456789}, 0.0, 40.0f, 3) == Texts{"0.123"});
  // A box too narrow for any digits: the shortest whole number, never a cut one.
  CHECK(texts({1234567.0}, 0.0, 1.0f) == Texts{"1e+06"});
  for (const float width : {1.0f, 4.0f, 7.0f, 10.0f})
    for (const double value : {-std::ldexp(1.0, -53), -2.0 / 3.0, 1234567.0, -9.87654321e-5, 1e300})
      for (const std::string& text : texts({value}, 0.0, width)) {
        char* end = nullptr;
        const double read = std::strtod(text.c_str(), &end);
        CHECK(end == text.c_str() + text.size());  // the whole text is one number
        CHECK(read == doctest::Approx(value).epsilon(0.5));  // the number, to its first digit
      }
}

TEST_CASE("typing 90 degrees into a rod's angle shows the bob at x = 1, y = 0, no round-off residue") {
  Sandbox sandbox(test_options(1100, 700));
  editing_empty_scene(sandbox);
  const SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}), screen_of(sandbox, {0.0, -1.0, 0.0}));  // a 1 m rod, hanging
  REQUIRE(e.draft.constraints.size() == 1);
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_widget(sandbox, "edit fixed");
  click_at(sandbox, screen_of(sandbox, {0.0, -0.5, 0.0}));  // the rod
  REQUIRE(e.constraint == 0);
  type_into(sandbox, "edit rod angle", "90");
  run_frames(sandbox, 2, 0.0);
  const Vec3 bob = e.draft.particles[1].position;
  REQUIRE(bob.x == doctest::Approx(1.0).epsilon(1e-15));
  REQUIRE(std::abs(bob.y) < 1e-15);  // sin 90° = 1, cos 90° = 0, up to round-off
  CHECK(state.widget_texts.at("edit rod angle") == std::vector<std::string>{"90"});
  click_at(sandbox, screen_of(sandbox, bob));
  REQUIRE(e.selected == std::vector<int>{1});
  run_frames(sandbox, 2, 0.0);
  const std::vector<std::string> shown = state.widget_texts.at("edit position");
  CHECK(shown == std::vector<std::string>{"1", "0"});
  for (const std::string& text : shown) CHECK(text.find("e-1") == std::string::npos);
  // Typing the other box leaves this one's exact value alone: x typed, y as it was.
  const double y = e.draft.particles[1].position.y;
  run_frames(sandbox, 1, 0.0);
  const auto boxes = state.widget_rects.at("edit position");  // two boxes side by side: x's is the left quarter
  click_at(sandbox, {boxes[0] + 0.25 * (boxes[2] - boxes[0]), 0.5 * (boxes[1] + boxes[3])});
  push_text("1.5");
  run_frames(sandbox, 1, 0.0);
  key(sandbox, SDLK_RETURN);
  run_frames(sandbox, 1, 0.0);
  CHECK(e.draft.particles[1].position.x == 1.5);
  CHECK(e.draft.particles[1].position.y == y);
}

TEST_CASE("an invalid edit shows the loader's message, and play and save wait until it is undone") {
  Sandbox sandbox(test_options(1000, 640));
  editing_empty_scene(sandbox);
  const SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_at(sandbox, screen_of(sandbox, {1.0, 0.0, 0.0}));
  key(sandbox, SDLK_a, KMOD_LCTRL);
  REQUIRE(e.selected.size() == 2);
  click_widget(sandbox, "fix all button");
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}), screen_of(sandbox, {1.0, 0.0, 0.0}));
  REQUIRE(e.draft.constraints.size() == 1);
  // What opening the saved file would say, word for word.
  const std::string expected = [&] {
    try {
      (void)make_world(parse_scene(write_scene(e.draft), "untitled.json"));
    } catch (const std::exception& error) {
      return std::string(error.what());
    }
    return std::string("(no error)");
  }();
  CHECK(e.problem == expected);
  CHECK(e.problem.find("constraints[0]") != std::string::npos);
  CHECK(e.problem_constraint == 0);
  key(sandbox, SDLK_e);
  CHECK(e.active);  // not played
  CHECK(state.toast_is_error);
  const auto dir = temp_dir("editor-invalid");
  const std::string file = (dir / "bad.json").string();
  std::snprintf(sandbox.state().editor.save_field.data(), e.save_field.size(), "%s", file.c_str());
  click_widget(sandbox, "edit save as button");
  CHECK(!std::filesystem::exists(file));
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.problem == "");
  key(sandbox, SDLK_e);
  CHECK(!e.active);
}

TEST_CASE("the chain and cloth generators add what their formulas say, hung from the selection") {
  Sandbox sandbox(test_options(1100, 700));
  editing_empty_scene(sandbox);
  const EditorState& e = sandbox.state().editor;
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_widget(sandbox, "edit fixed");
  click_widget(sandbox, "chain button");
  click_widget(sandbox, "add chain button");
  const int links = ChainDef{}.links;
  REQUIRE(e.draft.particles.size() == static_cast<std::size_t>(1 + links));
  REQUIRE(e.draft.constraints.size() == static_cast<std::size_t>(links));
  CHECK(e.draft.constraints[0].particles[0] == 0);  // hung from the selected particle
  CHECK(e.problem == "");
  click_widget(sandbox, "cloth button");
  click_widget(sandbox, "add cloth button");
  const ClothDef cloth;
  const std::size_t cloth_particles = static_cast<std::size_t>(cloth.nx * cloth.ny);
  CHECK(e.draft.particles.size() == 1 + links + cloth_particles);
  CHECK(e.problem == "");
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.draft.particles.size() == static_cast<std::size_t>(1 + links));
}

TEST_CASE("every widget of the Editor panel can be hovered and clicked, and edit mode leaves cleanly") {
  Sandbox sandbox(test_options(1100, 700));
  editing_empty_scene(sandbox);
  SandboxState& state = sandbox.state();
  key(sandbox, SDLK_3);
  drag(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}), screen_of(sandbox, {1.0, -1.0, 0.0}));
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_widget(sandbox, "edit fixed");
  click_at(sandbox, screen_of(sandbox, {0.5, -0.5, 0.0}));  // the rod
  click_at(sandbox, screen_of(sandbox, {1.0, -1.0, 0.0}));
  std::vector<std::string> names;
  for (const auto& [name, rect] : state.widget_rects)
    if (name.rfind("edit ", 0) == 0 || name.find("button") != std::string::npos || name.rfind("tool ", 0) == 0)
      names.push_back(name);
  CHECK(names.size() >= 15);
  for (const std::string& name : names) {
    if (name == "play button" || name == "edit button" || name == "edit save button" || name == "edit save as button")
      continue;  // leaving edit mode and saving: tested above
    if (state.widget_rects.count(name) == 0) continue;  // gone with what an earlier click changed
    click_widget(sandbox, name);
    // Esc closes a dialog a click opened, leaves a field (elsewhere it would back out of Edit mode: tested below).
    if (ImGui::GetIO().WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
      key(sandbox, SDLK_ESCAPE);
    for (const ParticleDef& p : state.editor.draft.particles) REQUIRE(finite(p.position));
  }
  CHECK(state.editor.active);
  state.editor.draft = Scene{};  // whatever the clicks left, a scene that can play
  state.editor.selected.clear();  // (nothing of the draft is left to be selected)
  state.editor.constraint = -1;
  state.editor.dirty = true;
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  click_widget(sandbox, "play button");
  run_frames(sandbox, 10, 1.0 / 60.0);
  REQUIRE(!state.editor.active);
  REQUIRE(sandbox.world().particle_count() == 1);
  CHECK(finite(sandbox.world().state().position[0]));
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("a click that arrives with no motion before it (xdotool after a jump) reaches the panel widget under it") {
  Sandbox sandbox(test_options(1000, 640));
  editing_empty_scene(sandbox);
  const EditorState& e = sandbox.state().editor;
  key(sandbox, SDLK_2);  // the Particle tool: a press that reached the scene would add a particle
  const auto rect = sandbox.state().widget_rects.at("tool Select");
  const glm::dvec2 centre(0.5 * (rect[0] + rect[2]), 0.5 * (rect[1] + rect[3]));
  push_mouse_motion({500.0, 300.0}, {500.0, 300.0}, false);  // the pointer last seen over the scene
  run_frames(sandbox, 2, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, centre);  // then a press on the button, no motion first
  run_frames(sandbox, 2, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONUP, centre);
  run_frames(sandbox, 2, 0.0);
  CHECK(e.tool == EditTool::Select);
  CHECK(e.draft.particles.empty());
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("lanes step aside while editing and come back on Play, started from the edited scene") {
  Sandbox sandbox(test_options(1000, 640));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_l);  // a second lane
  REQUIRE(sandbox.state().lane_count() == 2);
  key(sandbox, SDLK_e);
  REQUIRE(sandbox.state().editor.active);
  CHECK(sandbox.state().lane_count() == 1);
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 1.0, 0.0}));  // one more particle, free
  const std::size_t particles = sandbox.state().editor.draft.particles.size();
  key(sandbox, SDLK_e);
  REQUIRE(!sandbox.state().editor.active);
  REQUIRE(sandbox.state().lane_count() == 2);
  CHECK(sandbox.state().sim.world(1).particle_count() == particles);
  CHECK(sandbox.world().particle_count() == particles);
  CHECK(sandbox.state().sim.world(1).state().position == sandbox.world().state().position);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("Esc in Edit mode backs out one level: the field or dialog, the gesture, the selection, then Edit mode") {
  Sandbox sandbox(test_options(1000, 640));
  editing_empty_scene(sandbox);
  SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));  // one particle, selected
  click_at(sandbox, screen_of(sandbox, {1.0, 0.0, 0.0}));  // a second one
  REQUIRE(e.draft.particles.size() == 2u);
  key(sandbox, SDLK_1);
  click_at(sandbox, screen_of(sandbox, {1.0, 0.0, 0.0}));
  REQUIRE(e.selected == std::vector<int>{1});
  // A text field: Esc leaves the field, nothing else (the selection, Edit mode stay).
  click_widget(sandbox, "edit save path field");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(ImGui::GetIO().WantTextInput);
  key(sandbox, SDLK_ESCAPE);
  run_frames(sandbox, 2, 0.0);  // io.WantTextInput says so two frames later
  CHECK(!ImGui::GetIO().WantTextInput);
  CHECK(e.active);
  CHECK(e.selected == std::vector<int>{1});
  // A dialog (the chain generator's popup): Esc closes it, nothing else.
  click_widget(sandbox, "chain button");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel));
  key(sandbox, SDLK_ESCAPE);
  run_frames(sandbox, 1, 0.0);
  CHECK(!ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel));
  CHECK(e.active);
  CHECK(e.selected == std::vector<int>{1});
  // The help over the editor: Esc closes it.
  key(sandbox, SDLK_h);
  REQUIRE(state.view.help);
  key(sandbox, SDLK_ESCAPE);
  CHECK(!state.view.help);
  CHECK(e.active);
  // The selection, then Edit mode: the edited scene plays, as after E.
  key(sandbox, SDLK_ESCAPE);
  CHECK(e.selected.empty());
  CHECK(e.active);
  key(sandbox, SDLK_ESCAPE);
  CHECK(!e.active);
  CHECK(sandbox.world().particle_count() == 2u);
  CHECK(!state.paused);
  // In play Esc does not open Edit mode again.
  key(sandbox, SDLK_ESCAPE);
  CHECK(!e.active);
}

}  // namespace lagrange::app::test
