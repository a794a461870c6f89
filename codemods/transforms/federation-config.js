'use strict';
// ergraph-migrate's federation-config step as a jscodeshift transform (step.js says how it runs).
module.exports = require('./step.js')('federation-config');
