#ifndef GESTURED_CLIBYAML_SHIM_H
#define GESTURED_CLIBYAML_SHIM_H
// libyaml's event parser (Debian: libyaml-dev), seen only by GestureYAML.
#include <yaml.h>
#endif
