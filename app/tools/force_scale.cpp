#include "tools/force_scale.h"

#include <cmath>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"
#include "lagrange/measure.h"
#include "lagrange/text.h"

namespace lagrange::app {

double scale_reading(const World& world, int obstacle) {
  const auto& obstacles = world.model().contacts().obstacles;
  if (obstacle < 0 || static_cast<std::size_t>(obstacle) >= obstacles.size()) return 0.0;
  const Obstacle& o = obstacles[static_cast<std::size_t>(obstacle)];
  const Vec3 force = obstacle_force(world.state(), obstacle);
  if (o.shape == ObstacleShape::Plane) return -glm::dot(force, glm::normalize(o.normal));
  return glm::length(force);
}

double scene_weight(const World& world) {
  const Model& model = world.model();
  const double g = glm::length(world.settings().gravity);
  double weight = 0.0;
  for (std::size_t i = 0; i < model.particle_count(); ++i)
    if (!model.fixed(i)) weight += model.mass(i) * g;
  return weight;
}

double touching_weight(const World& world, int obstacle) {
  const Model& model = world.model();
  const double g = glm::length(world.settings().gravity);
  double weight = 0.0;
  int last = -1;  // contacts are sorted by particle: a particle on two faces of a box counts once
  for (const Contact& c : world.state().contacts.contacts)
    if (c.obstacle == obstacle && c.particle != last && !model.fixed(static_cast<std::size_t>(c.particle))) {
      weight += model.mass(static_cast<std::size_t>(c.particle)) * g;
      last = c.particle;
    }
  return weight;
}

double scale_reference(const ForceScale& scale, const World& world) {
  switch (scale.reference) {
    case ScaleReference::SceneWeight: return scale.factor * scene_weight(world);
    case ScaleReference::TouchingWeight: return scale.factor * touching_weight(world, scale.obstacle);
    case ScaleReference::Constant: return scale.constant;
  }
  return 0.0;
}

void scale_scene_started(ForceScale& scale, const World& world) {
  const auto& obstacles = world.model().contacts().obstacles;
  scale.samples.clear();
  scale.obstacle = obstacles.empty() ? -1 : 0;
  for (std::size_t k = 0; k < obstacles.size(); ++k)
    if (obstacles[k].shape == ObstacleShape::Plane) {
      scale.obstacle = static_cast<int>(k);
      break;
    }
  scale.reference = ScaleReference::TouchingWeight;  // F/ref: 1 under a resting load, 3 under a falling chain
  scale.factor = 1.0;
}

void scale_select(ForceScale& scale, const World& world, int obstacle) {
  if (obstacle < 0 || static_cast<std::size_t>(obstacle) >= world.model().contacts().obstacles.size()) return;
  if (obstacle != scale.obstacle) scale.samples.clear();
  scale.obstacle = obstacle;
}

void scale_after_step(ForceScale& scale, const World& world) {
  if (scale.obstacle < 0) return;
  // Resumed from an earlier moment of the timeline: what was read after it belongs to a history that is gone.
  while (!scale.samples.empty() && scale.samples.back().time >= world.time()) scale.samples.pop_back();
  scale.samples.push_back({world.time(), scale_reading(world, scale.obstacle), scale_reference(scale, world)});
  while (scale.samples.size() > ForceScale::kMaxSamples) scale.samples.pop_front();
}

std::string scale_csv(const ForceScale& scale, const World& world) {
  std::string text = "# the force on " + obstacle_name(world, scale.obstacle) +
                     " (N, mean over each step) and the reference (N)\nt,force,reference\n";
  for (const ScaleSample& s : scale.samples)
    text += format_number(s.time) + "," + format_number(s.force) + "," + format_number(s.reference) + "\n";
  return text;
}

std::string write_scale_csv(const ForceScale& scale, const World& world, const std::string& path,
                            const std::filesystem::path& scene_file) {
  try {
    if (scale.samples.empty()) return "the scale has read nothing yet: run the scene first";
    if (!scene_file.empty()) io::refuse_same_file(scene_file.string(), path);
    if (std::string folder = make_parent_folder(path); !folder.empty()) return folder;
    return io::write_file(path, scale_csv(scale, world));
  } catch (const std::exception& error) {
    return error.what();
  }
}

bool scale_means(const ForceScale& scale, double seconds, double& force, double& reference) {
  if (scale.samples.empty()) return false;
  const double since = scale.samples.back().time - seconds;
  double f = 0.0, r = 0.0;
  int count = 0;
  for (auto it = scale.samples.rbegin(); it != scale.samples.rend() && it->time > since; ++it, ++count) {
    f += it->force;
    r += it->reference;
  }
  if (count == 0) return false;
  force = f / count;
  reference = r / count;
  return true;
}

std::string obstacle_name(const World& world, int obstacle) {
  const auto& obstacles = world.model().contacts().obstacles;
  if (obstacle < 0 || static_cast<std::size_t>(obstacle) >= obstacles.size()) return "no obstacle";
  const Obstacle& o = obstacles[static_cast<std::size_t>(obstacle)];
  std::string name = obstacle_type_name(o.shape, world.dimension());
  name += ' ';  // not " " + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  name += std::to_string(obstacle);
  if (o.shape == ObstacleShape::Plane) {
    const Vec3 n = glm::normalize(o.normal), g = world.settings().gravity;
    const double up = glm::length(g) > 0.0 ? -glm::dot(n, glm::normalize(g)) : 0.0;
    // Within 10° of level (cos 10° = 0.985) a floor or a ceiling, of upright a wall: a 30° incline is a slope.
    name += up > 0.985 ? " (floor)" : up < -0.985 ? " (ceiling)" : std::abs(up) < 0.174 ? " (wall)" : " (slope)";
  }
  return name;
}

}  // namespace lagrange::app
