// Scenes: scene files turned into validated Scene values.
