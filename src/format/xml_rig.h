/*
 * The sinew XML rig loader (docs/xml.md; the contract is ../shared/docs/xml-rig-format.md).
 *
 * An XML rig becomes an ordinary `struct sinew_data` (source_format "xml"): one armature for the
 * document as written (named after the project) and one per skin (`NAME@SKIN`). Each XML bone is
 * a model bone whose own space has its origin at the bone's pivot, plus one slot of the same name
 * whose image displays sit at (W/2, H/2) - pivot. Animations become 5.x-style translate / rotate
 * timelines (rotations as plain numbers) and slot display timelines.
 */
#ifndef SINEW_FORMAT_XML_RIG_H
#define SINEW_FORMAT_XML_RIG_H

#include "model/model.h"
#include "sinew/data.h"

/* Loads an XML rig file. Images are resolved against the file's folder. */
sinew_status sinew__xml_load_file(const char *path, const sinew_load_options *opts, struct sinew_data **out,
                                  sinew_error *err);

/* Loads an XML rig from memory. `name` names the input in errors (may be NULL); image paths are
 * resolved against `base_dir` (NULL or "" = the current directory). */
sinew_status sinew__xml_load_buffer(const void *buf, size_t len, const char *name, const char *base_dir,
                                    const sinew_load_options *opts, struct sinew_data **out,
                                    sinew_error *err);

/* Builds the texture atlas of an XML rig: one page per distinct image (its PNG file), holding one
 * region of the whole page, named by the image's texture key (the path as written without ".png"). */
sinew_status sinew__xml_load_atlas_file(const char *path, const sinew_load_options *opts,
                                        struct sinew_atlas **out, sinew_error *err);

/* True when `path` ends in ".xml" (any case) or the buffer's first non-space byte is '<'. */
bool sinew__xml_sniff(const char *path, const void *buf, size_t len);

#endif
