/**
 * The Kubernetes API group and version every Atrium kind belongs to.
 */
export const API_GROUP = "atrium.dev";
export const API_VERSION = "v1alpha1";
export const GROUP_VERSION = `${API_GROUP}/${API_VERSION}`;
