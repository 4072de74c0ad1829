/**
 * sinew/script.h - scripted animation-state scenarios: the commands a game issues to an
 * armature over time (play, cross-fade, layers, groups, weights, time scales, seek, stop).
 *
 * The file format is the official runtime oracle's scenario format (shared/tools/oracle,
 * "Scenarios"), so one script runs in both and the dumps compare:
 *
 *     {"scenarios": [{"name": "walk-run", "armature": "hero", "fps": 60, "frames": 120,
 *       "commands": [{"t": 0, "op": "play", "animation": "walk"},
 *                    {"t": 0.5, "op": "fadeIn", "animation": "run", "fadeInTime": 0.2}]}]}
 *
 * `sinew poses FILE --script S.json` runs one; from C, load a script and issue its commands
 * yourself (sinew_script_issue) around sinew_instance_update, as docs/runtime.md shows.
 */
#ifndef SINEW_SCRIPT_H
#define SINEW_SCRIPT_H

#include "sinew/base.h"
#include "sinew/data.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sinew_instance;

/** What a command does (the official Animation / AnimationState calls). */
typedef enum sinew_script_op {
    SINEW_OP_PLAY = 0,         /**< play(animation, playTimes); no animation: resume or default */
    SINEW_OP_FADE_IN,          /**< fadeIn(animation, fadeInTime, playTimes, layer, group, mode) */
    SINEW_OP_GOTO_AND_PLAY,    /**< gotoAndPlayByTime / ByFrame / ByProgress */
    SINEW_OP_GOTO_AND_STOP,    /**< gotoAndStopByTime / ByFrame / ByProgress */
    SINEW_OP_STOP,             /**< stop(animation); no animation: every state */
    SINEW_OP_TIME_SCALE,       /**< the armature's animation time scale = value */
    SINEW_OP_STATE_WEIGHT,     /**< getState(animation).weight = value */
    SINEW_OP_STATE_TIME_SCALE  /**< getState(animation).timeScale = value */
} sinew_script_op;

/** One command, with the official defaults filled in for omitted fields. */
typedef struct sinew_script_command {
    double t;                  /**< issued right after the sample at game time t */
    sinew_script_op op;
    const char *animation;     /**< NULL when the script gives none */
    double fade_in_time;       /**< fadeIn: seconds, < 0 = the animation's (default -1) */
    int32_t play_times;        /**< -1 = the data's (default) */
    int32_t layer;             /**< fadeIn (default 0) */
    const char *group;         /**< fadeIn: NULL = none */
    int fade_out_mode;         /**< fadeIn: a sinew_fade_out_mode (default SameLayerAndGroup) */
    bool has_weight, has_time_scale;
    double weight, time_scale; /**< fadeIn: set on the new state only when given */
    int unit;                  /**< goto: a sinew_goto_unit (default time) */
    double value;              /**< goto position; timeScale / stateWeight / stateTimeScale value */
    uint32_t index;            /**< position in the scenario's "commands" as written */
} sinew_script_command;

/** One scenario: an armature sampled `frames` times at `fps` while its commands are issued. */
typedef struct sinew_scenario {
    const char *name;
    const char *armature;      /**< NULL: the first armature */
    double fps;                /**< samples per second (default: the armature's frame rate) */
    uint32_t frames;           /**< samples */
    const sinew_script_command *commands; /**< sorted by t (stable) */
    uint32_t command_count;
} sinew_scenario;

/** A loaded script (opaque). */
typedef struct sinew_script sinew_script;

/**
 * Loads a scenario script. When `data` is given, every armature and animation name is checked
 * against it (an unknown name is SINEW_E_NOT_FOUND at the name's line and column, listing the
 * names that exist) and omitted fps take the armature's frame rate. Malformed JSON, an unknown
 * op or unit, a missing required field or a value out of range fail with file:line:col and the
 * JSON path; unknown keys are warnings sent to opts->log.
 */
SINEW_API sinew_status sinew_script_load_file(const char *path, const struct sinew_data *data,
                                    const sinew_load_options *opts, sinew_script **out, sinew_error *err);
/** The same from memory (`name` is used in errors). */
SINEW_API sinew_status sinew_script_load_buffer(const void *buf, size_t len, const char *name, const struct sinew_data *data,
                                      const sinew_load_options *opts, sinew_script **out, sinew_error *err);
/** Frees a script (NULL is fine). */
SINEW_API void sinew_script_destroy(sinew_script *script);

/** Number of scenarios, and scenario i (NULL if out of range). */
SINEW_API uint32_t sinew_script_count(const sinew_script *script);
SINEW_API const sinew_scenario *sinew_script_scenario(const sinew_script *script, uint32_t i);

/**
 * Issues one command to the top armature of an instance, as the official runtime would (see
 * sinew/instance.h for each call). Fails with SINEW_E_NOT_FOUND for an animation the armature
 * does not have; state commands naming an animation that is not playing do nothing.
 */
SINEW_API sinew_status sinew_script_issue(struct sinew_instance *inst, const sinew_script_command *cmd, sinew_error *err);

#ifdef __cplusplus
}
#endif
#endif
