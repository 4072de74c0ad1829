/* The characters the picture tests draw (the rasterizer against cairo, the backends against the
 * rasterizer): where each one is, the armature, and two animations. */
#ifndef SINEW_TEST_CHARACTERS_H
#define SINEW_TEST_CHARACTERS_H

typedef struct test_character {
    const char *dir, *skeleton, *atlas, *armature, *anims[2];
} test_character;

/* every shared character with an atlas (all of $SHARED/data/dragonbones but Robot_4.5), relative
 * to that folder */
static const test_character shared_characters[] = {
    {"CoreElement_4.5", "CoreElement.json", "CoreElement_texture_1.json", "mecha_1502b", {"walk", "idle"}},
    {"Knight_4.5", "Knight.json", "Knight_texture_1.json", "knight", {"run", "stand"}},
    {"ReplaceSkinMan_4.0", "man.json", "texture.json", "man", {"runFront", "standBack"}},
    {"Ubbie_4.5", "Ubbie.json", "texture.json", "ubbie", {"walk", "turn face"}},
    {"ZOrder16_4.5", "16_ske.json", "16_tex.json", "armatureName", {"z动画-猫", "Z国王-定帧"}},
    {"dragon_boy_5.0", "dragon_boy_ske.json", "dragon_boy_tex.json", "DragonBoy", {"walk", "jump"}},
    {"mecha_1502b_5.5", "mecha_1502b_ske.json", "mecha_1502b_tex.json", "mecha_1502b", {"walk", "aim"}},
    {"you_xin_body_5.5", "body_ske.json", "body_tex.json", "body", {"idle", "laugh"}},
};
enum { SHARED_CHARACTERS = sizeof shared_characters / sizeof shared_characters[0] };

#endif
