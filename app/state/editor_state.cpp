// The scene editor's undo, redo and selection (editor_state.h).
#include "state/editor_state.h"

#include <algorithm>

namespace lagrange::app {

void EditorState::begin_change(const std::string& label) {
  ++edits_made;
  undo.push_back({draft, selected, constraint, label});
  if (undo.size() > kMaxUndo) undo.erase(undo.begin());
  redo.clear();
}

void EditorState::change(const std::string& label, const std::function<void(Scene&)>& edit) {
  begin_change(label);
  edit(draft);
  mark_changed();
}

namespace {

// Undo and redo are one move: the draft and selection now go onto `to`, the last step of `from` becomes the draft.
bool step_across(EditorState& e, std::vector<EditSnapshot>& from, std::vector<EditSnapshot>& to) {
  if (from.empty()) return false;
  to.push_back({std::move(e.draft), std::move(e.selected), e.constraint, from.back().label});
  e.draft = std::move(from.back().scene);
  e.selected = std::move(from.back().selected);
  e.constraint = from.back().constraint;
  from.pop_back();
  e.mark_changed();
  return true;
}

}  // namespace

bool EditorState::undo_last() { return step_across(*this, undo, redo); }
bool EditorState::redo_last() { return step_across(*this, redo, undo); }

bool EditorState::is_selected(int p) const { return std::find(selected.begin(), selected.end(), p) != selected.end(); }

void EditorState::select_only(int p) {
  selected = {p};
  constraint = -1;
}

std::string document_name(const EditorState& editor) {
  return editor.document.empty() ? std::string("untitled.json") : editor.document.filename().string();
}

int index_named(const std::string& problem, const std::string& what) {
  const std::string key = what + "[";
  const std::size_t at = problem.find(": " + key);
  if (at == std::string::npos) return -1;
  std::size_t i = at + 2 + key.size();
  int value = 0;
  bool digits = false;
  while (i < problem.size() && problem[i] >= '0' && problem[i] <= '9' && value < 100'000'000) {
    value = value * 10 + (problem[i] - '0');
    digits = true;
    ++i;
  }
  return digits && i < problem.size() && problem[i] == ']' ? value : -1;
}

}  // namespace lagrange::app
