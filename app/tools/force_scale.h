// The Measure strip's scale (issue 23): the force on one obstacle against time, as a bathroom scale under the
// scene would read it, beside a reference the class sets — k times the scene's weight, k times the weight of what
// touches the obstacle (three for a chain falling on a table), or a constant. The reading is the engine's mean
// force on the obstacle over each step (measure.h, obstacle_force: the same number as run --csv's
// obstacle<k>_f{x,y,z}), no window needed; measure_panel.cpp draws it, docs/app.md ("The scale") says what it reads.
#pragma once

#include <cstddef>
#include <deque>
#include <filesystem>
#include <string>

#include "lagrange/world.h"

namespace lagrange::app {

enum class ScaleReference { SceneWeight, TouchingWeight, Constant };

struct ScaleReferenceInfo {
  ScaleReference value;
  const char* label;
  const char* tip;
};
// The references, in the order the strip offers them: one table for the panel, the CSV and the tests.
inline constexpr ScaleReferenceInfo kScaleReferences[] = {
    {ScaleReference::SceneWeight, "k \xc3\x97 weight of everything",
     "k times the weight of every particle that can move, \xce\xa3 m g: what a floor under the whole scene reads once "
     "everything rests on it."},
    {ScaleReference::TouchingWeight, "k \xc3\x97 weight touching it",
     "k times the weight of the particles touching this obstacle now (their contacts with it in the last step). A "
     "chain falling on a table reads 3 times the weight already lying on it."},
    {ScaleReference::Constant, "a constant (N)", "A constant force in newtons, typed in."},
};

struct ScaleSample {
  double time = 0.0;       // s, simulated
  double force = 0.0;      // N: the reading (scale_reading)
  double reference = 0.0;  // N: the reference then
};

struct ForceScale {
  int obstacle = -1;  // contacts.h's index, or -1 in a scene without obstacles
  ScaleReference reference = ScaleReference::TouchingWeight;
  double factor = 1.0;    // k
  double constant = 1.0;  // N, for ScaleReference::Constant
  std::deque<ScaleSample> samples;  // the last kMaxSamples steps, oldest first
  static constexpr std::size_t kMaxSamples = 3600;  // a minute at 60 steps per second
};

// The scale's reading of obstacle k, in newtons: for a plane, the force the particles push into it along its normal
// (−F·n̂: a table under a weight reads +m g); for a box or a circle or sphere, the magnitude |F|. 0 for no obstacle.
double scale_reading(const World& world, int obstacle);
// Σ m |g| over the particles that can move.
double scene_weight(const World& world);
// Σ m |g| over the particles with a contact on obstacle k in the last step (State::contacts).
double touching_weight(const World& world, int obstacle);
// The reference of `scale` for the world now, in newtons.
double scale_reference(const ForceScale& scale, const World& world);
// A scene was loaded or reset: the first obstacle that is a plane (else the first), k = 1 against the weight
// touching it, no samples.
void scale_scene_started(ForceScale& scale, const World& world);
// The scale reads obstacle k from now on (a click on it in the scene, or the strip's list): its samples start again.
void scale_select(ForceScale& scale, const World& world, int obstacle);
// After every step: one sample (time, reading, reference).
void scale_after_step(ForceScale& scale, const World& world);
// The samples as CSV: "t,force,reference" with the obstacle and the reference named in the header's comment line.
std::string scale_csv(const ForceScale& scale, const World& world);
// Writes scale_csv to `path` (never the scene file `scene_file`), completely or not at all; "" or the reason.
std::string write_scale_csv(const ForceScale& scale, const World& world, const std::string& path,
                            const std::filesystem::path& scene_file);
// The mean reading and reference over the samples of the last `seconds`; false when there are none.
bool scale_means(const ForceScale& scale, double seconds, double& force, double& reference);
// "plane 0 (floor)", "box 1", "circle 2": an obstacle's name in the strip and in tooltips.
std::string obstacle_name(const World& world, int obstacle);

}  // namespace lagrange::app
