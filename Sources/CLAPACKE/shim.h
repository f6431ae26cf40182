#pragma once
#include <lapacke.h>
