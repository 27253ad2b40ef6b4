// Sensor: scene × camera × lights × exposure → raw frame and ground truth.
