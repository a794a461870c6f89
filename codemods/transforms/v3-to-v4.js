'use strict';
// ergraph-migrate's v3-to-v4 step as a jscodeshift transform (step.js says how it runs).
module.exports = require('./step.js')('v3-to-v4');
