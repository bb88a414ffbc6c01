#ifndef CPANGOCAIRO_SHIM_H
#define CPANGOCAIRO_SHIM_H
/* Every call SurveyPDF makes is a plain C function, so there are no helpers here: Pango
   units are converted with pango_units_to_double and pango_units_from_double, and objects
   are released with g_object_unref, which takes a plain pointer. */
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#endif
