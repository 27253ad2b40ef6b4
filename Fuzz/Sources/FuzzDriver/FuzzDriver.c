// The declaration in include/FuzzDriver.h is the whole point of this target; libFuzzer defines the function.
#include "FuzzDriver.h"
