import Scenes

extension Emulation {
    /// The scene photos and streams render now, as a value: the chosen scene, or the default.
    /// Change a copy and hand it to `use(scene:named:)` to alter the world between captures.
    package var sceneValue: Scene { currentScene.scene }

    /// Makes `scene` the scene every camera sees from now on, as if a scene file had been chosen:
    /// lights switched off or dimmed, objects moved or taken away. `reference` names it in
    /// reports (`Emulation.shared.scene`). Inside `withDevice` the change holds for that task only.
    package func use(scene: Scene, named reference: String) {
        let chosen = ChosenScene(reference: reference, scene: scene)
        if let world = scopedWorld {
            world.setScene(chosen)
        } else {
            lock.withLock { globalScene = chosen }
        }
        noteFootage(scene)
    }
}
