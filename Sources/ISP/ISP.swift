// ISP: image pipelines that turn raw frames into photos.
