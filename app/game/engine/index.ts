export * from "./state";
export * from "./clock";
export * from "./transition";
export * from "./scoring";
export * from "./view";
export * from "./restore";
export * from "./recipients";
