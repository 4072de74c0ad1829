/* libFuzzer target: the scenario script loader (and the commands it yields, issued to an
 * instance) must never crash, hang or leak on any input. The script is checked against a small
 * rig of this file's own: armature "a" with the animations "idle" and "walk". */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sinew/data.h"
#include "sinew/instance.h"
#include "sinew/script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char rig[] =
    "{\"name\":\"f\",\"version\":\"5.5\",\"frameRate\":24,\"armature\":[{\"name\":\"a\",\"bone\":[{\"name\":\"root\"},"
    "{\"name\":\"arm\",\"parent\":\"root\",\"length\":20}],\"slot\":[{\"name\":\"s\",\"parent\":\"arm\"}],"
    "\"skin\":[{\"slot\":[{\"name\":\"s\",\"display\":[{\"name\":\"img\"}]}]}],\"animation\":["
    "{\"name\":\"idle\",\"duration\":12,\"playTimes\":0,\"bone\":[{\"name\":\"arm\",\"rotateFrame\":["
    "{\"duration\":12,\"tweenEasing\":0,\"rotate\":0},{\"duration\":0,\"rotate\":30}]}]},"
    "{\"name\":\"walk\",\"duration\":8,\"playTimes\":2,\"frame\":[{\"duration\":4},{\"duration\":4,\"events\":[{\"name\":\"e\"}]}],"
    "\"bone\":[{\"name\":\"arm\",\"translateFrame\":[{\"duration\":8,\"tweenEasing\":0,\"x\":0},{\"duration\":0,\"x\":5}]}]}]}]}";

int LLVMFuzzerTestOneInput(const uint8_t *buf, size_t size) {
    static sinew_data *d;
    if (!d && sinew_data_load_buffer(rig, sizeof rig - 1, "rig", NULL, &d, NULL) != SINEW_OK)
        return 0;
    sinew_script *s = NULL;
    if (sinew_script_load_buffer(buf, size, "fuzz", d, NULL, &s, NULL) != SINEW_OK)
        return 0;
    sinew_instance *inst = NULL;
    if (sinew_instance_create(d, NULL, &inst, NULL) == SINEW_OK) {
        /* every command of every scenario, with a short step between them (bounded work) */
        uint32_t issued = 0;
        for (uint32_t i = 0; i < sinew_script_count(s) && issued < 200; ++i) {
            const sinew_scenario *sc = sinew_script_scenario(s, i);
            for (uint32_t k = 0; k < sc->command_count && issued < 200; ++k, ++issued) {
                sinew_script_issue(inst, &sc->commands[k], NULL);
                sinew_instance_update(inst, 1.0 / 30.0);
                while (sinew_instance_poll_event(inst, NULL)) {
                }
            }
        }
        sinew_instance_destroy(inst);
    }
    sinew_script_destroy(s);
    return 0;
}
