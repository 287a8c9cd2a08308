# cmake -DIN=src.comp -DOUT=planted.comp -DFROM=text -DTO=text -P plant_shader.cmake
# Writes a copy of a shader with one expression changed: the wrong module
# --self-test must catch (tests/cli/self_test.sh). Fails when the text is
# not in the shader, so the planted defect cannot silently become a no-op.
file(READ ${IN} text)
string(FIND "${text}" "${FROM}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN} has no \"${FROM}\" to plant a defect in")
endif()
string(REPLACE "${FROM}" "${TO}" text "${text}")
file(WRITE ${OUT} "${text}")
