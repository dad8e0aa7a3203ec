.amdgpu_metadata
*/
.end_amdgpu_metadata
