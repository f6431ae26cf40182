#pragma once
#include <libpq-fe.h>
