/** A placeholder until the sign-in page's script lands: the page's form posts without it. */
export {};
