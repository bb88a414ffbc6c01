#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, whose headers clash with Foundation's own ICU
   module on a cold build; the sanitizer needs none of it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xmlreader.h>
/* xmlFree is a mutable global function pointer, which Swift 6 will not read directly. */
static inline void clibxml2_free(void *p) { xmlFree(p); }
#endif
